/**
 * Per process: the target (the embedded mock, started here with its TEST-ONLY merchant and the
 * /paynet prefix, unless PAYCONFORM_BASE_URL names a gateway), one kept-alive client, and the step
 * timeout. After a failing step the scenario's exchanges are attached, redacted.
 */
import { AfterAll, AfterStep, BeforeAll, setDefaultTimeout, Status } from '@cucumber/cucumber';
import { PayClient } from '../../src/client/client.ts';
import { defectNamed } from '../../src/mock/defects.ts';
import { startMock, type RunningMock } from '../../src/mock/server.ts';
import { exchangeText } from '../../src/client/exchange-text.ts';
import { targetFromEnv } from '../../src/suite/target.ts';
import { shared, type PayWorld } from './world.ts';

setDefaultTimeout(Number(process.env.PAYCONFORM_STEP_TIMEOUT_MS || 30_000));

/** The prefix the embedded mock serves under, so every default run exercises a prefix before /api/. */
export const MOCK_PREFIX = '/paynet';
let mock: RunningMock | undefined;

BeforeAll(async function () {
  shared.target = targetFromEnv();
  // PAYCONFORM_MOCK_DEFECT (certify --defect) starts a deliberately broken mock, for npm run prove.
  const defect = process.env.PAYCONFORM_MOCK_DEFECT ? defectNamed(process.env.PAYCONFORM_MOCK_DEFECT, 'PAYCONFORM_MOCK_DEFECT') : undefined;
  if (shared.target.baseUrl === undefined) mock = await startMock({ prefix: MOCK_PREFIX, defect });
  shared.baseUrl = shared.target.baseUrl ?? `${mock!.url}${MOCK_PREFIX}`;
  shared.client = new PayClient({ baseUrl: shared.baseUrl, credentials: shared.target.credentials, endpointId: shared.target.endpointId });
});

AfterAll(async function () {
  await shared.client?.close();
  await mock?.close();
});

AfterStep(function (this: PayWorld, { result }) {
  if (result.status !== Status.FAILED) return;
  for (const exchange of this.exchanges.slice(-3)) this.attach(exchangeText(exchange, [this.target.credentials.controlKey]), 'text/plain');
});
