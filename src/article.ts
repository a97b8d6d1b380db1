/**
 * "a" or "an" before a word a message is built from (a field name such as orderid, an order status
 * such as error): by the word's first sound, read from its first letter, except the words whose
 * "u" or "eu" sounds like "you" (user, unique, uuid) and "one", which sound like a consonant.
 */
const CONSONANT_SOUND = /^(?:uni|use|usu|uti|ure|uu|eu|one)/i;

export function withArticle(word: string): string {
  return `${/^[aeiou]/i.test(word) && !CONSONANT_SOUND.test(word) ? 'an' : 'a'} ${word}`;
}
