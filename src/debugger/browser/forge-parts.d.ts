// node-forge's own files, imported one by one so the page carries RSA and PEM only (not x509, pkcs12, tls);
// their types are node-forge's, applied where they are imported.
declare module 'node-forge/lib/*';
