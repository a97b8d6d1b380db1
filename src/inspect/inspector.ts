/**
 * Judges each request a merchant's integration sends by every request rule of the rule book
 * (src/rules/book.ts), where the mock stops at the first failure, with the state that spans
 * requests: nonces seen, client order ids started, status checks since.
 */
import type { RequestRuleId } from '../rules/book.ts';
import { REQUEST_RULES } from '../rules/book.ts';
import { recordAnswer, recordHabits } from '../rules/habits.ts';
import { OrderHistory, type AnswerOutcome } from '../rules/history.ts';
import type { Merchant } from '../rules/merchant.ts';
import { NonceStore } from '../rules/nonces.ts';
import { RequestUnderTest, type RuleContext, type SeenRequest } from '../rules/request.ts';
import { judgeRequest, type Judgement } from '../rules/run.ts';
import type { SignatureDetail } from '../rules/signature-evidence.ts';
import { MAX_BODY_BYTES } from '../gateway/body-limit.ts';

export type { SeenRequest, SignatureDetail };

export interface CheckVerdict {
  /** The rule's id in the rule book. */
  readonly id: RequestRuleId;
  readonly outcome: 'pass' | 'fail' | 'skip';
  /** Why it failed or was skipped; never a secret. */
  readonly message?: string;
  readonly expected?: string;
  readonly actual?: string;
  readonly signature?: SignatureDetail;
  /** A failed check of a critical rule (a secret leaked): every report lists it first and marks it. */
  readonly critical?: true;
}

export interface RequestVerdict {
  readonly operation?: string;
  readonly endpointId?: string;
  readonly merchant?: string;
  readonly clientOrderId?: string;
  readonly checks: readonly CheckVerdict[];
  readonly passed: boolean;
  /** A check of a critical rule failed. */
  readonly critical?: true;
}

/** A verdict's failed checks, critical ones first (then in the book's order): the order every report lists them in. */
export function failedChecks(verdict: RequestVerdict): CheckVerdict[] {
  const failed = verdict.checks.filter((c) => c.outcome === 'fail');
  return [...failed.filter((c) => c.critical), ...failed.filter((c) => !c.critical)];
}

export interface InspectorSettings {
  readonly merchants: readonly Merchant[];
  readonly windowSeconds?: number;
  readonly now?: () => number;
}

/** A request judged once: its verdict for the report, and each rule's outcome for the gateway that answers it. */
export interface Inspected {
  readonly verdict: RequestVerdict;
  readonly judgements: readonly Judgement[];
}

export class Inspector {
  private readonly context: RuleContext;

  constructor(settings: InspectorSettings) {
    const windowSeconds = settings.windowSeconds ?? 300;
    this.context = {
      merchants: settings.merchants,
      windowSeconds,
      now: settings.now ?? Date.now,
      nonces: new NonceStore(windowSeconds),
      prefix: undefined,
      maxBodyBytes: MAX_BODY_BYTES,
      explain: true,
      history: new OrderHistory(),
    };
  }

  /** The one request value of what came: parsed as rules ask, once, by everyone who reads it. */
  request(seen: SeenRequest): RequestUnderTest {
    return new RequestUnderTest(seen, this.context);
  }

  judge(seen: SeenRequest): RequestVerdict {
    return this.inspect(this.request(seen)).verdict;
  }

  /** Judges the request by every request rule; its habits join the history the next requests are judged by. */
  inspect(req: RequestUnderTest): Inspected {
    const judgements = judgeRequest(REQUEST_RULES, req);
    const checks = judgements.map(({ rule, outcome }): CheckVerdict => {
      if (outcome.outcome === 'pass') return { id: rule.id, outcome: 'pass' };
      if (outcome.outcome === 'skip') return { id: rule.id, outcome: 'skip', message: outcome.reason };
      const { message, expected, actual, detail } = outcome.evidence;
      return {
        // What came, where the rule says: a developer reads this line first.
        id: rule.id,
        outcome: 'fail',
        message: actual === undefined ? message : `${message} (got ${actual})`,
        ...(rule.severity === 'critical' ? { critical: true as const } : {}),
        ...(expected === undefined ? {} : { expected }),
        ...(actual === undefined ? {} : { actual }),
        ...(detail === undefined ? {} : { signature: detail as SignatureDetail }),
      };
    });
    recordHabits(req);
    const { match, merchant, clientOrderId } = req;
    const verdict: RequestVerdict = {
      ...(checks.some((c) => c.critical) ? { critical: true as const } : {}),
      ...(match ? { operation: match.endpoint.operation, endpointId: match.endpointId } : {}),
      ...(merchant ? { merchant: merchant.login } : {}),
      ...(clientOrderId !== undefined && req.params ? { clientOrderId } : {}),
      checks,
      passed: checks.every((c) => c.outcome !== 'fail'),
    };
    return { verdict, judgements };
  }

  /** How the request's exchange ended: the rules that judge the integration's next requests read it. */
  answered(req: RequestUnderTest, outcome: AnswerOutcome): void {
    recordAnswer(req, outcome);
  }
}
