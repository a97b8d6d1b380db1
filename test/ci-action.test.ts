// The CI action (action.yml) and the GitLab template (ci/payconform.gitlab-ci.yml): the action is
// valid by an independent validator (@action-validator/core, SchemaStore's schema), both pass the same
// inputs to the same script, and the script itself runs here with sample inputs as a runner would
// start it: a passing run and a failing one, with the job summary, the outputs and the annotations
// it writes, and the signing key neither left on disk nor printed.
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validateAction } from '@action-validator/core';
import { parse } from 'yaml';

const root = new URL('..', import.meta.url).pathname;
const actionText = readFileSync(join(root, 'action.yml'), 'utf8');
const action = parse(actionText) as {
  inputs: Record<string, unknown>;
  runs: { steps: Array<{ id?: string; env?: Record<string, string>; run?: string }> };
};
const gitlab = parse(readFileSync(join(root, 'ci/payconform.gitlab-ci.yml'), 'utf8')) as Record<
  string,
  { variables: Record<string, string>; script: string[] }
>;
const dir = mkdtempSync(join(tmpdir(), 'payconform-action-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** The script's input variables each input of the action is passed in. */
const inputVariable = (input: string): string => `PAYCONFORM_INPUT_${input.toUpperCase().replaceAll('-', '_')}`;

describe('the CI action and the GitLab template', () => {
  it('is a valid action by an independent validator, which does catch a broken one', () => {
    assert.deepEqual(validateAction(actionText).errors, []);
    const broken = actionText.replace('      shell: bash\n      run: npm ci', '      run: npm ci');
    assert.notEqual(broken, actionText);
    assert.ok(validateAction(broken).errors.length > 0, 'a run step without its shell is refused');
  });

  it('passes every input of the action to the script, and the GitLab job the same variables', () => {
    const step = action.runs.steps.find((s) => s.id === 'certify');
    assert.ok(step?.env);
    const script = readFileSync(join(root, 'ci/certify.sh'), 'utf8');
    const job = gitlab['.payconform-certify'];
    assert.ok(job);
    for (const input of Object.keys(action.inputs).filter((i) => i !== 'artifact-name')) {
      const variable = inputVariable(input);
      assert.equal(step.env[variable], `\${{ inputs.${input} }}`, `${input} reaches the script`);
      assert.ok(script.includes(`input ${variable.slice('PAYCONFORM_INPUT_'.length)}`), `ci/certify.sh reads ${input}`);
      if (input !== 'sign-key') assert.ok(variable in job.variables, `the GitLab job sets ${variable}`);
    }
    assert.match(job.script.join('\n'), /ci\/certify\.sh/);
  });

  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();

  function runScript(name: string, inputs: Record<string, string>) {
    const work = join(dir, name);
    const tmp = join(work, 'tmp');
    mkdirSync(tmp, { recursive: true });
    const files = { summary: join(work, 'summary.md'), output: join(work, 'output.txt') };
    writeFileSync(files.summary, '');
    writeFileSync(files.output, '');
    const env = {
      ...Object.fromEntries(Object.entries(process.env).filter(([n]) => !n.startsWith('PAYCONFORM_'))),
      TMPDIR: tmp,
      GITHUB_ACTIONS: 'true',
      GITHUB_STEP_SUMMARY: files.summary,
      GITHUB_OUTPUT: files.output,
      PAYCONFORM_HOME: root,
      ...Object.fromEntries(Object.entries(inputs).map(([k, v]) => [inputVariable(k), v])),
    };
    const r = spawnSync('bash', [join(root, 'ci/certify.sh')], { cwd: work, env, encoding: 'utf8', timeout: 240_000 });
    return {
      code: r.status,
      out: `${r.stdout}${r.stderr}`,
      summary: readFileSync(files.summary, 'utf8'),
      output: readFileSync(files.output, 'utf8'),
      tmp,
      work,
    };
  }

  it('runs certify, signs the bundle, writes the summary and outputs, and leaves no key behind', () => {
    const r = runScript('pass', { tags: '@area:payouts', 'sign-key': pem, 'report-dir': 'out' });
    assert.equal(r.code, 0, r.out.slice(-2000));
    assert.match(r.summary, /^# payconform certify: PASSED$/m);
    assert.match(r.summary, /^## Coverage: \d+ of \d+ capabilities exercised$/m);
    assert.match(r.output, /^report-dir=out$/m);
    assert.match(r.output, /^verdict=PASSED$/m);
    assert.ok(existsSync(join(r.work, 'out', 'manifest.jws')), 'signed');
    assert.deepEqual(readdirSync(r.tmp), [], 'the key file is removed');
    const body = pem.split('\n')[1] ?? '';
    assert.ok(body.length > 20 && !r.out.includes(body) && !r.summary.includes(body), 'the key is never printed');
  });

  it('fails with certify, annotating each cause and writing it to the summary', () => {
    const r = runScript('fail', { tags: '@area:payouts', args: '--defect pay-twice', 'report-dir': 'out' });
    assert.equal(r.code, 1, r.out.slice(-2000));
    assert.match(r.out, /^::error title=payconform%3A pay-once \(1 failed\)::the gateway must act: /m);
    assert.match(r.summary, /^# payconform certify: FAILED$/m);
    assert.match(r.summary, /^\| 1 \| pay-once \| the gateway \| /m);
    assert.match(r.output, /^verdict=FAILED$/m);
  });
});
