/**
 * The one writer of HTML: every page payconform writes or serves (the certification page, inspect's report, the
 * mock's checkout and 3-D Secure pages) escapes untrusted text here and is made by `htmlPage`, whose policy
 * (Content-Security-Policy) fetches nothing, runs only the inline script and style it was written with (each allowed
 * by its SHA-256) and posts forms only where the page says. A gateway's or merchant's text is then inert twice over:
 * escaped, and unable to run even where escaping were missed. cucumber.html has its own policy (cucumber-html-csp.ts)
 * built from the same parts.
 */
import { createHash } from 'node:crypto';

const ENTITY: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text for an element's content or a quoted attribute value: `& < > " '` as entities, nothing else changed. */
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ENTITY[c] ?? c);

/** A CSP hash source of inline code: the SHA-256 of its UTF-8 bytes, as the browser hashes the element's text. */
export const sha256Source = (code: string): string => `'sha256-${createHash('sha256').update(code).digest('base64')}'`;

/** Where a page's forms may post: nowhere, its own origin, or origins the page names. */
export type FormTargets = 'none' | 'self' | readonly string[];

/**
 * An origin fit to stand in a policy: `http(s)://host[:port]` of letters, digits, dots, hyphens (or an IPv6
 * literal). A merchant's URL that is anything else (a `;` would start a directive of its own) allows nothing.
 */
export function formOrigin(url: string): string | undefined {
  try {
    const { origin, protocol } = new URL(url);
    return (protocol === 'http:' || protocol === 'https:') &&
      /^https?:\/\/([a-z0-9.-]+|\[[0-9a-f:.]+\])(:\d+)?$/.test(origin)
      ? origin
      : undefined;
  } catch {
    return undefined;
  }
}

const formAction = (targets: FormTargets): string =>
  targets === 'none' ? "'none'" : targets === 'self' ? "'self'" : targets.length ? targets.join(' ') : "'none'";

/** The policy of a page whose inline styles and scripts have these hash sources, posting forms to `forms`. */
export function contentSecurityPolicy(
  styles: readonly string[],
  scripts: readonly string[],
  forms: FormTargets = 'none',
  more: readonly string[] = [],
): string {
  const allowed = (sources: readonly string[]): string => (sources.length ? [...new Set(sources)].join(' ') : "'none'");
  return [
    "default-src 'none'",
    `style-src ${allowed(styles)}`,
    `script-src ${allowed(scripts)}`,
    ...more,
    "base-uri 'none'",
    `form-action ${formAction(forms)}`,
  ].join('; ');
}

export interface PageParts {
  readonly title: string;
  /** The page's one stylesheet, written inline. */
  readonly style: string;
  /** The body's HTML, its untrusted text already escaped with escapeHtml. */
  readonly body: string;
  /** An inline script at the end of the body (trusted code only: it is allowed by its hash). */
  readonly script?: string | undefined;
  readonly forms?: FormTargets | undefined;
}

/** A whole page: doctype, charset, viewport, the policy, the title, the style, the body and its script. */
export function htmlPage({ title, style, body, script, forms = 'none' }: PageParts): string {
  const scripts = script === undefined ? [] : [sha256Source(script)];
  const policy = contentSecurityPolicy([sha256Source(style)], scripts, forms);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(policy)}">
<title>${escapeHtml(title)}</title>
<style>${style}</style></head><body>
${body}${script === undefined ? '' : `\n<script>${script}</script>`}
</body></html>
`;
}
