/**
 * The run's selection, checked before anything is made: a tag expression that does not parse, and a
 * selection (tags, shard) of no scenario, are one line and exit 2 rather than an empty green run.
 */
import { parse } from '@cucumber/tag-expressions';
import { PayconformError } from '../errors.ts';

/** Throws ERR_SELECTION when `tags` is not a cucumber tag expression. */
export function checkTagExpression(tags: string | undefined): void {
  if (tags === undefined) return;
  try {
    parse(tags);
  } catch (err) {
    // cucumber's first line repeats the expression before its reason: the reason alone is shown.
    const first = (err as Error).message.split('\n')[0] ?? '';
    const prefix = `Tag expression "${tags}" could not be parsed because of syntax error: `;
    const reason = first.startsWith(prefix) ? first.slice(prefix.length) : first;
    throw new PayconformError('ERR_SELECTION', `--tags: "${tags}" is not a tag expression (${reason})`, {
      field: '--tags',
      rule: 'tag expression',
      cause: err,
    });
  }
}

/**
 * How many of `tagged` scenarios (those the tags select) shard `I/N` runs: every N-th from the I-th,
 * as cucumber's sharding plugin takes them (loadSources does not shard).
 */
export function shardSize(tagged: number, shard: string | undefined): number {
  if (shard === undefined) return tagged;
  const [index, total] = shard.split('/').map(Number) as [number, number];
  return tagged < index ? 0 : Math.floor((tagged - index) / total) + 1;
}

/** Throws ERR_SELECTION when the selection (tags, then shard) holds no scenario. */
export function checkSelected(tagged: number, tags: string | undefined, shard: string | undefined): void {
  if (shardSize(tagged, shard) > 0) return;
  const [field, detail] =
    tagged === 0
      ? ['--tags', tags === undefined ? 'no feature holds a scenario' : `"${tags}" selects no scenario`]
      : ['--shard', `shard ${shard} of the ${tagged} selected scenarios is empty`];
  throw new PayconformError('ERR_SELECTION', `${field}: ${detail}; nothing was run`, {
    field,
    rule: 'selects a scenario',
  });
}
