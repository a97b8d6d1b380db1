// Node's Buffer for the page: the signing code turns strings into UTF-8 bytes and base64 with it.
// The bundle injects this where `Buffer` is used without an import (scripts/build-debugger.mjs).
export { Buffer } from 'buffer';
