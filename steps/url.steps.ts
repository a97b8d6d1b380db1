/**
 * Steps about {base_url}: it includes any prefix before /api/ (the spec's Endpoints), and whether a
 * gateway has one is its own choice. So the prefix scenario runs where the base URL has a prefix and
 * is not applicable where it has none; against the embedded mock, which serves under /paynet, a
 * second mock without a prefix runs the same request the other way.
 */
import assert from 'node:assert/strict';
import { After } from '@cucumber/cucumber';
import { PayClient } from '../src/client/client.ts';
import { startMock, type RunningMock } from '../src/mock/server.ts';
import { profileWire } from '../src/suite/profile.ts';
import { Given, notApplicable, Then } from './support/verdict.ts';
import type { PayWorld } from './support/world.ts';

const prefixOf = (baseUrl: string): string => new URL(baseUrl).pathname.replace(/\/+$/, '');

/** The mock and client of "the embedded mock also serves without a prefix", closed after the scenario. */
const unprefixed = new WeakMap<PayWorld, { mock: RunningMock; client: PayClient }>();

Given('the base URL has a path prefix before {string}', function (this: PayWorld, api: string) {
  if (prefixOf(this.client.options.baseUrl) === '')
    notApplicable(this, `the base URL ${new URL(this.client.options.baseUrl).origin} has no prefix before ${api}`);
});

Then('the request went to the prefix', function (this: PayWorld) {
  const prefix = prefixOf(this.client.options.baseUrl);
  assert.ok(new URL(this.last.request.url).pathname.startsWith(`${prefix}/api/`), this.last.request.url);
});

Given('the embedded mock also serves without a prefix', async function (this: PayWorld) {
  if (this.target.baseUrl !== undefined) notApplicable(this, 'only the embedded mock can be started without a prefix');
  const mock = await startMock({ defect: this.target.defect, ...profileWire(this.profile) });
  const client = new PayClient({ ...this.client.options, baseUrl: mock.url });
  unprefixed.set(this, { mock, client });
  this.useClient(client);
});

Then('the request went to the base URL without a prefix', function (this: PayWorld) {
  assert.match(new URL(this.last.request.url).pathname, /^\/api\//, this.last.request.url);
});

After(async function (this: PayWorld) {
  const started = unprefixed.get(this);
  if (!started) return;
  await started.client.close();
  await started.mock.close();
});
