/**
 * Extraction of the HTML document from a model's reply in the HTML (direct chat) generation mode
 * (paper §5, Appendix B.1; METHOD.md §7: "the model gets only the query and returns one self-contained
 * HTML file"). Replies come in many shapes: one fenced ```html block, a bare document with prose around it,
 * several blocks (a full document plus snippets, or separate HTML, CSS and JavaScript blocks), or a reply
 * cut off by the token limit (an unterminated fence, a document without `</html>`). A reply without HTML
 * is not a candidate: the caller records a generation failure and keeps the reply.
 */

/** How the document was found. */
export type ExtractionMethod = 'fenced' | 'fenced-largest' | 'fenced-combined' | 'bare' | 'fragment';

/** What {@link extractHtml} found: a document, or the reason there is none. */
export type Extraction =
  | {
      html: string;
      method: ExtractionMethod;
      /** The reply ended inside the document (no `</html>`, or an unterminated fence); closing tags were added. */
      truncated: boolean;
      /** Number of fenced blocks in the reply. */
      blocks: number;
    }
  | { html: null; reason: string; blocks: number };

interface Block {
  lang: string;
  body: string;
  closed: boolean;
}

/** Fenced code blocks (``` or ~~~, three or more), the last possibly unterminated. */
function fencedBlocks(reply: string): Block[] {
  const out: Block[] = [];
  const re = /^[ \t]*(`{3,}|~{3,})[ \t]*([\w+#.-]*)[^\n]*\n/gm;
  let m: RegExpExecArray | null;
  while ((m = re.exec(reply))) {
    const fence = m[1]!;
    const start = m.index + m[0].length;
    const close = new RegExp(`^[ \\t]*${fence[0] === '`' ? '`' : '~'}{${fence.length},}[ \\t]*$`, 'm');
    const rest = reply.slice(start);
    const c = close.exec(rest);
    out.push({ lang: m[2]!.toLowerCase(), body: c ? rest.slice(0, c.index) : rest, closed: !!c });
    if (!c) break;
    re.lastIndex = start + c.index + c[0].length;
  }
  return out;
}

const DOC = /<!doctype\s+html|<html[\s>]/i;
const TAGS = /<(body|head|div|main|section|canvas|svg|button|h1|h2|p|ul|form|script|style|header|nav|table|input)[\s>/]/i;

/** Is this text a whole document (doctype or <html>)? */
function isDocument(s: string): boolean {
  return DOC.test(s);
}

/** Close what a cut-off document left open (a <script> or <style>, then body and html). */
function closeTruncated(html: string): { html: string; truncated: boolean } {
  if (/<\/html\s*>/i.test(html)) return { html, truncated: false };
  let out = html.replace(/\s+$/, '');
  const lastOpen = (tag: string) => {
    const open = [...out.matchAll(new RegExp(`<${tag}[\\s>]`, 'gi'))].pop()?.index ?? -1;
    const close = [...out.matchAll(new RegExp(`</${tag}\\s*>`, 'gi'))].pop()?.index ?? -1;
    return open > close;
  };
  if (lastOpen('script')) out += '\n</script>';
  if (lastOpen('style')) out += '\n</style>';
  if (/<body[\s>]/i.test(out) && !/<\/body\s*>/i.test(out)) out += '\n</body>';
  out += '\n</html>\n';
  return { html: out, truncated: true };
}

/** Cut a document out of surrounding prose: from the doctype (or <html>) to `</html>` (or the end). */
function cutDocument(s: string): { html: string; truncated: boolean } {
  const start = s.search(DOC);
  const from = s.slice(start);
  const end = from.search(/<\/html\s*>/i);
  if (end >= 0) return { html: from.slice(0, end + from.slice(end).indexOf('>') + 1) + '\n', truncated: false };
  return closeTruncated(from);
}

/** Wrap an HTML fragment (body content, perhaps with <style>/<script>) into a document. */
function wrapFragment(fragment: string, css = '', js = ''): string {
  return `<!DOCTYPE html>\n<html>\n<head>\n<meta charset="utf-8">\n<meta name="viewport" content="width=device-width, initial-scale=1">\n${css ? `<style>\n${css}\n</style>\n` : ''}</head>\n<body>\n${fragment.trim()}\n${js ? `<script>\n${js}\n</script>\n` : ''}</body>\n</html>\n`;
}

/**
 * Find the HTML document in a model's reply. Never throws.
 * Order: a fenced block holding a whole document (the largest when there are several: a full page beats
 * the snippets around it); else separate HTML + CSS + JS blocks combined into one page; else a bare
 * document in the prose; else an ```html block holding only a fragment, wrapped into a page. A document the
 * reply ends inside is kept with its open `<script>`/`<style>`, body and html closed, and `truncated` set.
 * @param reply the model's whole text answer
 * @returns the document and how it was found, or `html: null` with the reason (no HTML in the reply)
 */
export function extractHtml(reply: string): Extraction {
  const blocks = fencedBlocks(reply);
  const docs = blocks.filter((b) => isDocument(b.body));
  if (docs.length) {
    const best = docs.reduce((a, b) => (b.body.length > a.body.length ? b : a));
    const cut = cutDocument(best.body);
    return { html: cut.html, method: docs.length > 1 ? 'fenced-largest' : 'fenced', truncated: cut.truncated || !best.closed, blocks: blocks.length };
  }
  const htmlBlocks = blocks.filter((b) => (b.lang === 'html' || b.lang === 'htm' || b.lang === 'xml' || b.lang === '') && TAGS.test(b.body));
  const css = blocks.filter((b) => b.lang === 'css').map((b) => b.body.trim()).join('\n\n');
  const js = blocks.filter((b) => b.lang === 'js' || b.lang === 'javascript').map((b) => b.body.trim()).join('\n\n');
  if (htmlBlocks.length && (css || js)) {
    const body = htmlBlocks.map((b) => b.body).join('\n');
    return { html: wrapFragment(body, css, js), method: 'fenced-combined', truncated: blocks.some((b) => !b.closed), blocks: blocks.length };
  }
  // a bare document: outside the fences (prose around it), or inside an unlabelled/other block
  const outside = blocks.length ? reply.replace(/^[ \t]*(`{3,}|~{3,})[^\n]*$/gm, '') : reply;
  if (isDocument(outside)) {
    const cut = cutDocument(outside);
    return { html: cut.html, method: 'bare', truncated: cut.truncated, blocks: blocks.length };
  }
  const fragment = htmlBlocks.find((b) => b.lang === 'html' || b.lang === 'htm') ?? htmlBlocks[0];
  if (fragment) return { html: wrapFragment(fragment.body), method: 'fragment', truncated: !fragment.closed, blocks: blocks.length };
  if (!reply.trim()) return { html: null, reason: 'the reply is empty', blocks: 0 };
  const langs = [...new Set(blocks.map((b) => b.lang || 'unlabelled'))];
  return {
    html: null,
    reason: blocks.length ? `no HTML document in the reply (${blocks.length} code block(s): ${langs.join(', ')})` : 'no HTML document in the reply (prose only)',
    blocks: blocks.length,
  };
}
