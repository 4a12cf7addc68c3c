/**
 * A light English stemmer: Porter's steps 1a–1c and 5 (M. F. Porter, "An algorithm for suffix stripping", 1980).
 * It folds plurals (`revenues` → `revenu`, `companies` → `compani`), `-ed` / `-ing` (`increased`, `increasing` →
 * `increas`), a final `-y` (`company` → `compani`) and a final `-e` (`revenue` → `revenu`), and leaves derivational
 * suffixes (`-ation`, `-ness`, `-ful` …) alone, so that distinct concepts (`operation` / `operate`) stay apart.
 */

function isConsonant(word: string, i: number): boolean {
  const c = word[i];
  if (c === 'a' || c === 'e' || c === 'i' || c === 'o' || c === 'u') return false;
  if (c === 'y') return i === 0 ? true : !isConsonant(word, i - 1);
  return true;
}

/** Porter's measure m of `stem`: the number of vowel–consonant sequences in `[C](VC){m}[V]`. */
function measure(stem: string): number {
  let m = 0;
  let i = 0;
  const n = stem.length;
  while (i < n && isConsonant(stem, i)) i++;
  while (i < n) {
    while (i < n && !isConsonant(stem, i)) i++;
    if (i >= n) break;
    while (i < n && isConsonant(stem, i)) i++;
    m++;
  }
  return m;
}

function hasVowel(stem: string): boolean {
  for (let i = 0; i < stem.length; i++) if (!isConsonant(stem, i)) return true;
  return false;
}

function endsWithDoubleConsonant(word: string): boolean {
  const n = word.length;
  return n >= 2 && word[n - 1] === word[n - 2] && isConsonant(word, n - 1);
}

/** `*o`: the stem ends consonant–vowel–consonant, the last consonant not w, x or y (`hop`, not `snow`). */
function endsCvc(word: string): boolean {
  const n = word.length;
  if (n < 3 || !isConsonant(word, n - 1) || isConsonant(word, n - 2) || !isConsonant(word, n - 3)) return false;
  const last = word[n - 1];
  return last !== 'w' && last !== 'x' && last !== 'y';
}

function step1a(word: string): string {
  if (word.endsWith('sses')) return word.slice(0, -2);
  if (word.endsWith('ies')) return word.slice(0, -2);
  if (word.endsWith('ss')) return word;
  if (word.endsWith('s')) return word.slice(0, -1);
  return word;
}

function step1b(word: string): string {
  if (word.endsWith('eed')) return measure(word.slice(0, -3)) > 0 ? word.slice(0, -1) : word;
  let stem: string | undefined;
  if (word.endsWith('ed') && hasVowel(word.slice(0, -2))) stem = word.slice(0, -2);
  else if (word.endsWith('ing') && hasVowel(word.slice(0, -3))) stem = word.slice(0, -3);
  if (stem === undefined) return word;
  if (stem.endsWith('at') || stem.endsWith('bl') || stem.endsWith('iz')) return `${stem}e`;
  if (endsWithDoubleConsonant(stem) && !/[lsz]$/.test(stem)) return stem.slice(0, -1);
  if (measure(stem) === 1 && endsCvc(stem)) return `${stem}e`;
  return stem;
}

function step1c(word: string): string {
  return word.endsWith('y') && hasVowel(word.slice(0, -1)) ? `${word.slice(0, -1)}i` : word;
}

function step5(word: string): string {
  let out = word;
  if (out.endsWith('e')) {
    const stem = out.slice(0, -1);
    const m = measure(stem);
    if (m > 1 || (m === 1 && !endsCvc(stem))) out = stem;
  }
  if (out.endsWith('ll') && measure(out) > 1) out = out.slice(0, -1);
  return out;
}

/**
 * Stems one lower-case English word (Porter steps 1a–1c and 5). Words of one or two letters and anything that is
 * not plain `a-z` are returned unchanged.
 *
 * @example
 * ```ts
 * stemEnglish('revenues'); // 'revenu' (as is stemEnglish('revenue'))
 * stemEnglish('expenditures'); // 'expenditur'
 * ```
 */
export function stemEnglish(word: string): string {
  if (word.length <= 2 || !/^[a-z]+$/.test(word)) return word;
  return step5(step1c(step1b(step1a(word))));
}
