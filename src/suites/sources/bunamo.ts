import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/*
 * Reader for BÚNaMo (Irish National Morphology Database) entry files. Their shape is small and
 * known: one root element per file whose children are (almost always) empty elements carrying
 * every value in attributes. A general XML parser would be a new dependency for no gain, so this
 * is a careful scanner for that shape; it rejects what it does not understand instead of guessing.
 * The entity and attribute helpers are shared with sentence-bank.ts.
 */

/** One child element of an entry, e.g. `<sgGen default="iarnróid" gender="masc" />`. */
export interface BunamoSlot {
  element: string;
  attributes: Record<string, string>;
  /** The `default` attribute: the word form. Empty when the file has none. */
  value: string;
}

/** One BÚNaMo file. */
export interface BunamoEntry {
  /** Path inside the BÚNaMo folder with `/` separators, e.g. `noun/iarnród_masc1.xml`. */
  file: string;
  /** Subfolder, e.g. `noun`. */
  category: string;
  /** Root element name, e.g. `noun`. */
  root: string;
  /** Root `default`: the lemma. */
  lemma: string;
  /** Root attributes (declension, disambig, isPre, ...). */
  attributes: Record<string, string>;
  /** Children in file order; a slot that holds several forms appears once per form. */
  slots: BunamoSlot[];
}

export interface SourceProblem {
  file: string;
  message: string;
}

const NAMED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/** Decode the five XML entities and numeric references; an unknown entity is an error, not text. */
export function decodeXmlEntities(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-zA-Z]+);|&/g, (whole, ref: string | undefined) => {
    if (ref === undefined) throw new Error(`bare "&" in XML text near "${text.slice(0, 40)}"`);
    if (ref.startsWith('#x')) return String.fromCodePoint(parseInt(ref.slice(2), 16));
    if (ref.startsWith('#')) return String.fromCodePoint(parseInt(ref.slice(1), 10));
    const named = NAMED[ref];
    if (named === undefined) throw new Error(`unknown XML entity ${whole}`);
    return named;
  });
}

const ATTRIBUTE = /([A-Za-z_][\w:.-]*)\s*=\s*(?:"([^"<]*)"|'([^'<]*)')/gy;

/** Attributes of a start tag (the text after the element name), either quote style, entities decoded. */
export function parseXmlAttributes(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  let pos = 0;
  for (;;) {
    while (pos < text.length && /\s/.test(text[pos]!)) pos++;
    if (pos >= text.length) return out;
    ATTRIBUTE.lastIndex = pos;
    const m = ATTRIBUTE.exec(text);
    if (!m) throw new Error(`cannot read attributes at "${text.slice(pos, pos + 40)}"`);
    out[m[1]!] = decodeXmlEntities(m[2] ?? m[3] ?? '');
    pos = ATTRIBUTE.lastIndex;
  }
}

/** Drop what precedes and surrounds the elements: a UTF-8 BOM (readFileSync keeps it), the declaration, comments. */
export function stripXmlProlog(text: string): string {
  return text.replace(/^\uFEFF/, '').replace(/<\?[\s\S]*?\?>/g, '').replace(/<!--[\s\S]*?-->/g, '');
}

const TAG = /<(\/?)([A-Za-z_][\w:.-]*)((?:\s+[A-Za-z_][\w:.-]*\s*=\s*(?:"[^"<]*"|'[^'<]*'))*)\s*(\/?)>/g;

/** Parse one BÚNaMo entry file's text. `file` is the path inside the BÚNaMo folder, for ids and errors. */
export function parseBunamoXml(text: string, file: string): BunamoEntry {
  const body = stripXmlProlog(text);
  const slots: BunamoSlot[] = [];
  let root: { name: string; attributes: Record<string, string> } | undefined;
  let depth = 0;
  let last = 0;
  let closed = false;
  for (const m of body.matchAll(TAG)) {
    const between = body.slice(last, m.index);
    if (between.trim() !== '') throw new Error(`${file}: unexpected text "${between.trim().slice(0, 40)}"`);
    last = m.index + m[0].length;
    const [, slash, name, attrText, selfClose] = m;
    if (closed) throw new Error(`${file}: content after the root element`);
    if (slash) {
      depth--;
      if (depth === 0) {
        if (name !== root?.name) throw new Error(`${file}: </${name}> closes <${root?.name}>`);
        closed = true;
      }
      continue;
    }
    const attributes = parseXmlAttributes(attrText ?? '');
    if (depth === 0) root = { name: name!, attributes };
    else if (depth === 1) slots.push({ element: name!, attributes, value: attributes.default ?? '' });
    if (!selfClose) depth++;
    else if (depth === 0) closed = true;
  }
  if (body.slice(last).trim() !== '') throw new Error(`${file}: unexpected text after the last tag`);
  if (!root || !closed) throw new Error(`${file}: no complete root element`);
  const category = file.includes('/') ? file.slice(0, file.indexOf('/')) : root.name;
  return { file, category, root: root.name, lemma: root.attributes.default ?? '', attributes: root.attributes, slots };
}

/** Every form an entry lists for one element, in file order, without duplicates or empty values. */
export function slotValues(entry: BunamoEntry, element: string): string[] {
  const out: string[] = [];
  for (const s of entry.slots) if (s.element === element && s.value !== '' && !out.includes(s.value)) out.push(s.value);
  return out;
}

export interface BunamoRead {
  entries: BunamoEntry[];
  problems: SourceProblem[];
  /** False when the folder itself is missing. */
  found: boolean;
}

/**
 * Read every `*.xml` file in the given category subfolders of a BÚNaMo folder (the full database or
 * any subset of it), sorted by path in code-point order so every machine reads them in one order.
 * Files that do not parse are reported, not fatal.
 */
export function readBunamo(dir: string, categories: readonly string[]): BunamoRead {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return { entries: [], problems: [{ file: dir, message: 'folder not found' }], found: false };
  const entries: BunamoEntry[] = [];
  const problems: SourceProblem[] = [];
  for (const category of categories) {
    const sub = join(dir, category);
    if (!existsSync(sub)) {
      problems.push({ file: `${category}/`, message: 'subfolder not found' });
      continue;
    }
    // Ids carry file names, so compare and emit them in NFC whatever the file system stores.
    const names = readdirSync(sub)
      .filter(n => n.endsWith('.xml'))
      .map(n => [n, n.normalize('NFC')] as const)
      .sort((a, b) => (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
    for (const [name, nfc] of names) {
      const file = `${category}/${nfc}`;
      try {
        entries.push(parseBunamoXml(readFileSync(join(sub, name), 'utf8'), file));
      } catch (e) {
        problems.push({ file, message: (e as Error).message });
      }
    }
  }
  return { entries, problems, found: true };
}
