/**
 * Text as search compares it: lower case, without accents ("Café" and "cafe" are one word),
 * compatibility forms folded ("ﬁ" is "fi"). The full-text indexes fold the texts they index
 * alike; this folds what people type, and the names people search.
 */
export function foldForSearch(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();
}

/** The words of a text as search compares them: runs of letters and digits, folded. */
export function searchWords(text: string): string[] {
  return foldForSearch(text).match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** A first name as people search finds it (`users.search_name`): its words, folded, one space apart. */
export function searchName(name: string): string {
  return searchWords(name).join(' ');
}

/** What a question's search document holds: its title, its tags and its choices, each as text. */
export interface SearchDocument {
  question_id: number;
  title: string;
  tags: string;
  choices: string;
}

/** The document of a question, from what it is stored with: MC choices as a JSON array of texts. */
export function searchDocumentOf(
  question: { id: number; title: string; choice_labels: string | null },
  tags: readonly string[],
): SearchDocument {
  const choices = question.choice_labels === null ? [] : (JSON.parse(question.choice_labels) as string[]);
  return { question_id: question.id, title: question.title, tags: tags.join(' '), choices: choices.join(' ') };
}
