/** A concept a question may name, with the wordings evidence uses for it. */
export interface Concept {
  /** Short name, recorded in notes. */
  name: string;
  /** Matches the question wording (the concept is also named when the question writes one of its aliases). */
  trigger: RegExp;
  /** Wordings in evidence (lower case; matched on word boundaries, punctuation-insensitive, abbreviations expanded). */
  aliases: readonly string[];
  /** The item is an outflow reported as a negative (parentheses) amount; its magnitude answers "what is the amount". */
  outflow?: boolean;
  /** The concept is not a financial-statement line item (read from text as often as from tables). Default false. */
  general?: boolean;
  /** Abbreviations of the pack the concept belongs to (labels are compared with them written out). */
  abbreviations?: ReadonlyMap<string, string>;
}
