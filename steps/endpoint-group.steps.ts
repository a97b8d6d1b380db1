/**
 * Steps about endpoint groups (spec Identifiers: "on some operations an endpoint group identifier is
 * also accepted"; A-3): a request to the merchant's group, with the group id in the endpointId's
 * place or in the vendor library's own URL, …/{operation}/group/{groupId}.
 */
import assert from 'node:assert/strict';
import { Given, notApplicable, Then, When } from './support/verdict.ts';
import type { PayWorld } from './support/world.ts';

Given('the merchant has an endpoint group', function (this: PayWorld) {
  if (this.target.endpointGroupId === undefined)
    notApplicable(this, 'the merchant has no endpoint group here: set PAYCONFORM_ENDPOINT_GROUP_ID to certify it');
});

When('I send a signed {string} request to the endpoint group', async function (this: PayWorld, operation: string) {
  await this.sendSigned(operation, await this.requestFor(operation), { endpointId: this.target.endpointGroupId });
});

When(
  "I send a signed {string} request to the endpoint group's own URL",
  async function (this: PayWorld, operation: string) {
    await this.sendSigned(operation, await this.requestFor(operation), {
      endpointId: this.target.endpointGroupId,
      groupUrl: true,
    });
  },
);

/** The vendor library configured with a group sends every operation to its group URL, the order's later moves included. */
Given("every request goes to the endpoint group's own URL", function (this: PayWorld) {
  this.sendDefaults = { endpointId: this.target.endpointGroupId, groupUrl: true };
});

Then('the request went to {string}', function (this: PayWorld, form: string) {
  const path = new URL(this.last.request.url).pathname;
  const group = this.target.endpointGroupId!;
  assert.ok(
    form === '…/group/{groupId}'
      ? path.endsWith(`/group/${group}`)
      : path.endsWith(`/${group}`) && !path.includes('/group/'),
    `${form}: ${path}`,
  );
});
