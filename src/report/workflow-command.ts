/**
 * The one writer of GitHub Actions workflow commands (`::error title=…::message`): a runner reads
 * each line of a step's output as a command, so a text from a run must not end its command or start
 * another. The runner's own escapes: `%`, CR and LF in the message; those and `:` and `,` in a property.
 */
const escapeData = (s: string): string => s.replaceAll('%', '%25').replaceAll('\r', '%0D').replaceAll('\n', '%0A');
const escapeProperty = (s: string): string => escapeData(s).replaceAll(':', '%3A').replaceAll(',', '%2C');

export type AnnotationLevel = 'error' | 'warning' | 'notice';

/** One annotation, on one line whatever its texts hold (each cut to `max` characters). */
export function workflowAnnotation(level: AnnotationLevel, title: string, message: string, max = 1000): string {
  // Other control characters would reach the log as they are: shown as spaces.
  // eslint-disable-next-line no-control-regex
  const clean = (s: string): string => s.slice(0, max).replace(/[\u0000-\u0009\u000b\u000c\u000e-\u001f\u007f]/g, ' ');
  return `::${level} title=${escapeProperty(clean(title))}::${escapeData(clean(message))}`;
}
