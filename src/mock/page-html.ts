/** The look of every page the mock shows the customer's browser (checkout, 3-D Secure), on the one page shell. */
import type { ServerResponse } from 'node:http';
import { htmlPage, type FormTargets } from '../report/html.ts';

const STYLE = `
  body { font: 16px/1.5 system-ui, sans-serif; background: #f3f5f8; margin: 0;
    display: grid; place-items: center; min-height: 100vh; }
  main { background: #fff; padding: 2rem; border-radius: 12px; box-shadow: 0 4px 24px #0002; width: min(24rem, 90vw); }
  h1 { font-size: 1.25rem; margin: 0 0 .25rem; } .amount { font-size: 2rem; font-weight: 700; margin: .5rem 0 1.5rem; }
  label { display: block; font-size: .85rem; color: #445; margin-top: .75rem; }
  input { width: 100%; box-sizing: border-box; padding: .6rem; font-size: 1rem;
    border: 1px solid #ccd; border-radius: 6px; }
  .row { display: flex; gap: .75rem; } .row > * { flex: 1; }
  button { margin-top: 1.5rem; width: 100%; padding: .8rem; font-size: 1rem; color: #fff; background: #2457d6;
    border: 0; border-radius: 6px; cursor: pointer; }
  .note { color: #667; font-size: .8rem; margin-top: 1rem; }
`;

/** What a page does beyond showing: where its forms post (nowhere by default) and its one inline script. */
export interface PageActions {
  readonly forms?: FormTargets;
  readonly script?: string;
}

export function page(
  res: ServerResponse,
  status: number,
  title: string,
  main: string,
  { forms, script }: PageActions = {},
): void {
  const html = htmlPage({ title, style: STYLE, body: `<main>${main}</main>`, script, forms });
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'content-length': Buffer.byteLength(html) });
  res.end(html);
}
