import type { Cause } from '../report/causes.ts';

/** What inspect's report says of a run: its summary, coverage and where it ran (report.ts writes it). */
export interface Coverage {
  readonly exercised: readonly string[];
  readonly never: readonly string[];
  /** Async answers whose order was later asked for with status, out of all async answers. */
  readonly asyncAnswers: number;
  readonly polled: number;
}

export interface InspectSummary {
  readonly requests: number;
  readonly passed: number;
  readonly failed: number;
  /** Requests that passed every check but the gateway refused (or did not answer): among the failed. */
  readonly refusedOnly: number;
  /** Requests with a critical finding (a secret sent, no-control-key-in-request): listed first everywhere. */
  readonly critical: number;
  readonly failedChecks: Readonly<Record<string, number>>;
  readonly coverage: Coverage;
  /** Orders whose callbacks were played (--callback-checks), and how many of them failed a check. */
  readonly callbackOrders: number;
  readonly callbackOrdersFailed: number;
  /** Callback checks not played (no such event for the order: a chargeback of a declined one), over all orders. */
  readonly callbackChecksNotPlayed: number;
  /** Callback checks played whose state part was not judged (no --callback-state), over all orders. */
  readonly callbackChecksNotJudged: number;
  /** Orders whose customer returns were played (--return-checks), and how many of them failed a check. */
  readonly returnOrders: number;
  readonly returnOrdersFailed: number;
  /** The failed checks grouped by rule and diagnosed mistake, largest first (causes.ts). */
  readonly causes: readonly Cause[];
}

export interface InspectMeta {
  readonly target: string;
  readonly startedAt: string;
  readonly finishedAt: string;
  /** --callback-checks was given: the report has a callback section even when no order was final. */
  readonly callbackChecks?: boolean;
  /** --callback-state's origin and path (never its query): the shop's state judged the callbacks' effects. */
  readonly callbackState?: string;
  /** --return-checks was given: the report has a customer-return section even when no order was final. */
  readonly returnChecks?: boolean;
  /** Where inspect listened: a report of a run no request reached tells where they should have gone. */
  readonly url?: string;
  /** What ended the session: a signal, --duration or --until-requests. */
  readonly stoppedBy?: 'SIGINT' | 'SIGTERM' | 'duration' | 'until-requests';
  /** Ended by a signal: requests and callbacks still under way were cut and are not in the report. */
  readonly interrupted?: boolean;
}
