/**
 * Per process: the target (from cucumber's worldParameters, where the runner puts it, or from the
 * PAYCONFORM_* variables for plain `npx cucumber-js`), the embedded mock when the target has no base
 * URL (started here with its TEST-ONLY merchant, the /paynet prefix and any deliberate defect), one
 * kept-alive client, and the step timeout. After a failing step the scenario's exchanges are
 * attached, redacted.
 */
import { AfterAll, AfterStep, Before, BeforeAll, setDefaultTimeout, Status } from '@cucumber/cucumber';
import { parse as parseTagExpression } from '@cucumber/tag-expressions';
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { threadId } from 'node:worker_threads';
import { PayClient } from '../../src/client/client.ts';
import { harEntryOf, type RecordedExchange } from '../../src/report/har.ts';
import { startMock, type RunningMock } from '../../src/mock/server.ts';
import { exchangeText } from '../../src/client/exchange-text.ts';
import { credentialSecrets } from '../../src/report/redact.ts';
import { targetOf, type Target } from '../../src/suite/target.ts';
import { profileWire } from '../../src/suite/profile.ts';
import { recordNotApplicable } from './verdict.ts';
import { shared, type PayWorld } from './world.ts';

setDefaultTimeout(Number(process.env.PAYCONFORM_STEP_TIMEOUT_MS || 30_000));

/** The prefix the embedded mock serves under, so every default run exercises a prefix before /api/. */
export const MOCK_PREFIX = '/paynet';
let mock: RunningMock | undefined;

// BeforeAll has no World, but it has the worldParameters as this.parameters (cucumber-js 10.1+,
// docs/support_files/hooks.md, "World parameters in BeforeAll/AfterAll").
BeforeAll(async function () {
  const target = targetOf(this.parameters, process.env);
  shared.target = target;
  // Callbacks soon, retried on the default compressed timeline (the first retry after a millisecond), by the
  // method the profile says the gateway uses; with a profile that declares how its gateway answers, the embedded
  // mock answers so (mock --profile does the same).
  if (target.baseUrl === undefined)
    mock = await startMock({
      prefix: MOCK_PREFIX,
      defect: target.defect,
      callbacks: { delayMs: 10, method: target.profile.callbacks.method },
      ...profileWire(target.profile),
    });
  shared.baseUrl = target.baseUrl ?? `${mock!.url}${MOCK_PREFIX}`;
  shared.client = new PayClient({
    baseUrl: shared.baseUrl,
    credentials: target.credentials,
    endpointId: target.endpointId,
    answerFields: target.profile.answerFields,
    answers: target.profile.answers,
    timeoutMs: target.timeoutMs,
    maxAnswerBytes: target.maxAnswerBytes,
    onExchange: target.recordDir === undefined ? undefined : harLines(target.recordDir, target),
  });
});

/** Each exchange of this process as one redacted HAR entry a line, in a file of its own (certify --record). */
function harLines(dir: string, target: Target): (x: RecordedExchange) => void {
  const file = join(dir, `${process.pid}-${threadId}.ndjson`);
  const secrets = credentialSecrets(target.credentials);
  return (x) => appendFileSync(file, `${JSON.stringify(harEntryOf(x, secrets))}\n`);
}

/** A scenario's premise assumptions are its @A-n tags; a profile may say it does not apply to this gateway. */
Before(function (this: PayWorld, { pickle }) {
  const tags = pickle.tags.map((t) => t.name);
  this.premise = tags.filter((t) => /^@A-[0-9]+$/.test(t)).map((t) => t.slice(1));
  const reason = this.target.profile.notApplicable.find((n) => parseTagExpression(n.tags).evaluate(tags))?.reason;
  if (reason === undefined) return undefined;
  recordNotApplicable(this, `${this.target.profile.name}: ${reason}`);
  return 'skipped';
});

// A process may run the suite more than once (npm run prove): leave nothing of this run behind. The client is cut,
// not drained: a request a timed-out step left behind must not keep the run waiting (PayClient.close).
AfterAll(async function () {
  await shared.client?.close();
  await mock?.close();
  mock = undefined;
  shared.client = undefined;
  shared.target = undefined;
  shared.baseUrl = undefined;
});

AfterStep(function (this: PayWorld, { result }) {
  if (result.status !== Status.FAILED) return;
  for (const exchange of this.exchanges.slice(-3))
    this.attach(exchangeText(exchange, credentialSecrets(this.target.credentials)), 'text/plain');
});
