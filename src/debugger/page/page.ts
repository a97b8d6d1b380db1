/// <reference lib="dom" />
/**
 * The debugger page's script: reads the form, runs the engine on every change and writes what it shows.
 * Everything is built with DOM calls and textContent, never innerHTML: the pasted text is data.
 * `window.payconformDebugger` gives a test the same engine the form uses.
 */
import type { DebuggerInput, DebuggerResult, SentAgainstCorrect } from '../case.ts';
import { runCase } from '../engine.ts';
import { inputFromFragment } from '../export-case.ts';

const byId = <T extends HTMLElement>(id: string): T => {
  const found = document.getElementById(id);
  if (found === null) throw new Error(`the page has no #${id}`);
  return found as T;
};

const form = {
  request: byId<HTMLTextAreaElement>('request'),
  callback: byId<HTMLInputElement>('callback'),
  login: byId<HTMLInputElement>('login'),
  controlKey: byId<HTMLInputElement>('control-key'),
  showKey: byId<HTMLInputElement>('show-key'),
  publicKey: byId<HTMLTextAreaElement>('public-key'),
  privateKey: byId<HTMLTextAreaElement>('private-key'),
};
const out = {
  verdict: byId('verdict-body'),
  diagnosis: byId('diagnosis-body'),
  steps: byId('steps-body'),
  link: byId<HTMLAnchorElement>('case-link'),
  vector: byId<HTMLTextAreaElement>('vector-file'),
  readme: byId<HTMLTextAreaElement>('pack-readme'),
  save: byId<HTMLButtonElement>('save-vector'),
};

function el(tag: string, text?: string, className?: string): HTMLElement {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (className !== undefined) node.className = className;
  return node;
}

function inputOf(): DebuggerInput {
  return {
    request: form.request.value,
    login: form.login.value,
    controlKey: form.controlKey.value,
    publicKeyPem: form.publicKey.value,
    privateKeyPem: form.privateKey.value,
    callback: form.callback.checked,
    showKey: form.showKey.checked,
  };
}

/** A value with its first differing character marked. */
function marked(value: string, at: number | undefined): HTMLElement {
  const pre = el('pre');
  if (at === undefined || at >= value.length) {
    pre.textContent = value;
    if (at !== undefined) pre.append(el('mark', '␄'));
    return pre;
  }
  pre.append(value.slice(0, at), el('mark', value.charAt(at)), value.slice(at + 1));
  return pre;
}

function comparison(c: SentAgainstCorrect): HTMLElement {
  const box = el('div');
  const at = c.difference?.position;
  box.append(el('h3', `${c.what}: correct, then sent`));
  box.append(marked(c.correct, at), marked(c.sent, at));
  box.append(el('p', at === undefined ? 'identical' : `first difference at character ${at + 1} (marked)`));
  return box;
}

function renderVerdict(r: DebuggerResult): void {
  const body: HTMLElement[] = [];
  if (r.error !== undefined) body.push(el('p', r.error, 'error'));
  if (r.verdict !== undefined) body.push(el('p', r.verdict === 'valid' ? 'valid' : 'invalid', r.verdict));
  if (r.message !== undefined) body.push(el('p', r.message));
  if (r.endpoint !== undefined)
    body.push(el('p', `endpoint: ${r.endpoint} (${r.scheme ?? ''}); read as: ${r.format ?? ''}`));
  if (r.value) body.push(comparison(r.value));
  out.verdict.replaceChildren(...body);
}

function renderDiagnosis(r: DebuggerResult): void {
  const body: HTMLElement[] = [];
  for (const m of r.mistakes) {
    const box = el('div', undefined, 'mistake');
    box.append(el('h3', `${m.id}: ${m.title}`), el('p', m.explanation), el('p', `Fix: ${m.fix}`));
    body.push(box);
  }
  if (r.verdict === 'valid') body.push(el('p', 'No mistake: the signature is what the spec gives.'));
  if (r.verdict === 'invalid' && r.mistakes.length === 0)
    body.push(el('p', `No known mistake reproduces what was sent${r.tried ? `; tried: ${r.tried.join(', ')}` : ''}.`));
  if (r.covered) body.push(comparison(r.covered));
  out.diagnosis.replaceChildren(...body);
}

function renderSteps(r: DebuggerResult): void {
  const list = el('ol', undefined, 'steps');
  for (const s of r.steps) {
    const item = el('li');
    item.append(el('strong', s.title), el('pre', s.value));
    if (s.details.length > 0) item.append(el('pre', s.details.join('\n'), 'details'));
    list.append(item);
  }
  const body: HTMLElement[] = r.stepsError !== undefined ? [el('p', r.stepsError, 'error')] : [];
  out.steps.replaceChildren(...body, list);
}

function render(r: DebuggerResult): void {
  renderVerdict(r);
  renderDiagnosis(r);
  renderSteps(r);
  out.link.href = r.fragment === '' ? '#' : r.fragment;
  out.vector.value = r.vectorFile ?? '';
  out.readme.value = r.packReadme ?? r.packReadmeMissing ?? '';
  out.save.disabled = r.vectorFile === undefined;
}

let lastMs = 0;
function update(): void {
  const started = performance.now();
  render(runCase(inputOf()));
  lastMs = performance.now() - started;
}

function saveVector(): void {
  const url = URL.createObjectURL(new Blob([out.vector.value], { type: 'application/json' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = 'case.json';
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

function start(): void {
  const fromLink = inputFromFragment(location.hash);
  form.request.value = fromLink.request;
  form.login.value = fromLink.login ?? '';
  form.callback.checked = fromLink.callback === true;
  for (const field of Object.values(form)) field.addEventListener('input', update);
  form.showKey.addEventListener('change', () => {
    form.controlKey.type = form.showKey.checked ? 'text' : 'password';
  });
  out.save.addEventListener('click', saveVector);
  // A HAR file (or any text file) dropped on the field is read as if pasted: read here, sent nowhere.
  form.request.addEventListener('dragover', (e) => e.preventDefault());
  form.request.addEventListener('drop', (e) => {
    const file = e.dataTransfer?.files[0];
    if (file === undefined) return;
    e.preventDefault();
    void file.text().then((text) => {
      form.request.value = text;
      update();
    });
  });
  update();
}

declare global {
  interface Window {
    payconformDebugger: { runCase: typeof runCase; lastRenderMs: () => number };
  }
}
window.payconformDebugger = { runCase, lastRenderMs: () => lastMs };
start();
