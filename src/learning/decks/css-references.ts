/** Whether a reference stays inside the document: a data: URL or a same-document #fragment. */
export function isInlineReference(value: string, isSrcset = false): boolean {
  const refs = isSrcset ? value.split(',').map(part => part.trim().split(/\s+/)[0] ?? '') : [value];
  return refs.every(ref => {
    const v = ref.trim().replace(/^['"]|['"]$/g, '');
    return v === '' || v.startsWith('#') || /^data:/i.test(v);
  });
}

// url( ... ) with an optional quoted or bare target; CSS escapes inside URLs are rare enough to refuse whole.
const URL_TOKEN = /url\(\s*(?:"([^"]*)"|'([^']*)'|([^)]*?))\s*\)/gi;
const IMPORT_RULE = /@import\s+[^;]+;?/gi;

/**
 * CSS with every url() that leaves the document replaced by `none`, and every @import removed;
 * each removal is passed to `onRemoved` so the sanitisation report can list it.
 */
export function stripExternalCss(css: string, onRemoved: (reference: string) => void): string {
  const withoutImports = css.replace(IMPORT_RULE, rule => {
    onRemoved(rule.trim());
    return '';
  });
  return withoutImports.replace(URL_TOKEN, (token, dq: string | undefined, sq: string | undefined, bare: string | undefined) => {
    const target = dq ?? sq ?? bare ?? '';
    if (isInlineReference(target)) return token;
    onRemoved(target);
    return 'none';
  });
}
