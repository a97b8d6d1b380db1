/**
 * Steps that judge answers. What the spec states fails a scenario when it is missed: a 200 for an
 * accepted request, no 2xx for a refused one, application/vnd.pay+json and a JSON body on the 200,
 * 400 and 500 it lists. Each other check names its rule of the book, whose basis decides: an
 * assumption's miss (the answer's fields, error codes, a 4xx for a refusal) is a warning against a
 * gateway other than the embedded mock (steps/support/verdict.ts).
 * Failure messages show the status and the (card-free) answer, never the request's secrets.
 */
import { answerFieldsKnown } from '../src/rules/answer-body.ts';
import { validationErrorStatus } from '../src/rules/answers.ts';
import { rulesRefusingWith, type RuleId, type RuleInfo } from '../src/rules/book.ts';
import { answerFieldPresent, errorNamesField, refusalCode } from '../src/rules/expectations.ts';
import { answerFailure } from '../src/rules/judge-answer.ts';
import type { Exchange } from '../src/client/client.ts';
import { Then } from './support/verdict.ts';
import { shown, type PayWorld } from './support/world.ts';

/**
 * The answer's problems (src/client/client.ts), each under its rule: one of the spec fails, those of an
 * assumption become one warning per assumption id, so a gateway that adds ten fields is one warning, not ten.
 */
function judgeProblems(world: PayWorld, x: Exchange): void {
  const ignored = world.profile.unknownAnswerFields === 'ignore' ? answerFieldsKnown.id : undefined;
  for (const p of x.problems.filter((q) => q.assumption === undefined)) {
    world.expect(false, {
      check: 'answer',
      expected: 'what the spec states',
      actual: p.message,
      deviation: p.deviation,
      // The problem's own rule, so a failure's cause names it (report/causes.ts); its basis is the spec's.
      rule: p.deviation === undefined ? p.rule : 'answer-media-type',
      detail: shown(x),
    });
  }
  const byAssumption = new Map<string, { rule: RuleId; messages: string[] }>();
  for (const p of x.problems)
    if (p.assumption !== undefined && p.rule !== ignored) {
      const group = byAssumption.get(p.assumption) ?? { rule: p.rule, messages: [] };
      byAssumption.set(p.assumption, { ...group, messages: [...group.messages, p.message] });
    }
  for (const { rule, messages } of byAssumption.values()) {
    world.expect(false, {
      check: `${x.operation} answer ${x.status}`,
      expected: 'the answer docs/assumptions.md describes',
      actual: messages.join('; '),
      rule,
      detail: shown(x),
    });
  }
}

Then('the gateway accepts it', function (this: PayWorld) {
  const x = this.last;
  if (
    this.expect(x.status === 200, {
      check: `${x.operation} status`,
      expected: '200 (accepted)',
      actual: String(x.status),
      kind: 'refused-met',
      detail: shown(x),
    })
  )
    judgeProblems(this, x);
});

/** Refused: no 2xx (spec), a 4xx (A-21: a client mistake), an error body as its status needs (client problems). */
Then('the gateway refuses it', function (this: PayWorld) {
  const x = this.last;
  if (
    !this.expect(x.status < 200 || x.status > 299, {
      check: `${x.operation} status`,
      expected: 'a refusal (no 2xx)',
      actual: String(x.status),
      kind: 'accepted-wrong',
      detail: shown(x),
    })
  )
    return;
  const status = answerFailure({ ...x.seen, refusalExpected: true }, validationErrorStatus.id);
  if (
    !this.expect(status === undefined, {
      check: `${x.operation} refusal status`,
      expected: status?.expected ?? '4xx (a client mistake)',
      actual: String(x.status),
      rule: validationErrorStatus.id,
      detail: shown(x),
    })
  )
    return;
  judgeProblems(this, x);
});

Then('the gateway answers with a server error', function (this: PayWorld) {
  const x = this.last;
  if (
    this.expect(x.status === 500, {
      check: `${x.operation} status`,
      expected: '500 (ServerErrorResponse)',
      actual: String(x.status),
      kind: 'refused-met',
      detail: shown(x),
    })
  )
    judgeProblems(this, x);
});

const ruleLine = (r: RuleInfo): string => `${r.id} (${r.basis}: ${r.clause})`;

/**
 * The rule book's code for a refusal, or what the profile says this gateway answers instead. The
 * code must be the refusal of a rule in the rule book: a feature naming any other is a mistake here.
 */
Then('the error code is {string}', function (this: PayWorld, code: string) {
  const rules = rulesRefusingWith(code);
  if (rules.length === 0) throw new Error(`${code} is the refusal of no rule in src/rules/book.ts`);
  const compared = {
    what: 'error code',
    expected: this.profile.errorCodes[code] ?? [code],
    actual: this.answer('error-code'),
  };
  const outcome = refusalCode.check(compared);
  this.expect(outcome.outcome !== 'fail', {
    check: 'error code',
    expected: compared.expected.join(' or '),
    actual: compared.actual ?? 'none',
    rule: refusalCode.id,
    kind: 'refused-met',
    expectedCode: compared.expected[0],
    detail: `${shown(this.last)}; expected under rule ${rules.map(ruleLine).join(' or ')}`,
  });
});

Then('the error names the field {string}', function (this: PayWorld, field: string) {
  const named = this.answer('field') ?? '';
  const message = this.answer('error-message') ?? '';
  // The field itself, or a message that starts "field: …".
  const actual = message.startsWith(`${field}:`) ? field : named || message || undefined;
  this.expect(
    errorNamesField.check({ what: 'field named by the error', expected: [field], actual }).outcome === 'pass',
    {
      check: 'field named by the error',
      expected: field,
      actual: named || message || 'none',
      rule: errorNamesField.id,
      kind: 'refused-met',
      detail: shown(this.last),
    },
  );
});

Then('the answer carries a {string}', function (this: PayWorld, name: string) {
  const present = answerFieldPresent.check({ what: this.answerName(name), expected: [], actual: this.answer(name) });
  this.expect(present.outcome === 'pass', {
    check: `${this.last.operation} answer field`,
    expected: `a "${this.answerName(name)}"`,
    actual: 'none',
    rule: answerFieldPresent.id,
    detail: shown(this.last),
  });
});

Then('the first answer was accepted', function (this: PayWorld) {
  const first = this.exchanges.at(-2)!;
  this.expect(first.status === 200, {
    check: `${first.operation} status`,
    expected: '200 (accepted)',
    actual: String(first.status),
    kind: 'refused-met',
    exchange: this.seen(first),
    detail: shown(first),
  });
});
