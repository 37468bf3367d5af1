/**
 * The one way content YAML is parsed (front matter and `_site.yaml`): its nesting is measured
 * before the parser builds anything, and repeated keys are found in linear time.
 *
 * Why: the yaml package composes nested collections recursively. Nesting in the thousands
 * (`a: [[[[…` or ten thousand ever deeper indented keys) exhausts the stack: yaml catches that as
 * an error of its own, but what it built is still thousands deep, and every recursive step after it
 * (toJS, visit, a structured clone, JSON) may overflow on the serving thread. No configuration or
 * front matter needs more than a few levels, so 64 is far beyond honest use and far below harm.
 */

import type { LineCounter } from 'yaml';
import { CST, Document, isScalar, Lexer, parseDocument, visit, YAMLParseError } from 'yaml';

/** Deepest nesting of collections (mappings and lists, block or flow) content YAML may have. */
export const MAX_YAML_DEPTH = 64;

/**
 * Where `text` first nests deeper than `maxDepth`, as an offset into it, or null.
 *
 * Read from the lexer's tokens, which the lexer makes without recursion: flow brackets count
 * exactly; block nesting counts each indentation column still open: a line's first token, each
 * `- ` or `? ` (`- - - x` is three lists deep) and the token after one (`- k: v` is a mapping in a
 * list). It may count one level more than the parser (a scalar after `- `) or one less (a list
 * at its key's own column), never more than one off.
 */
export function yamlTooDeepAt(text: string, maxDepth = MAX_YAML_DEPTH): number | null {
  const columns: number[] = [];
  let flowDepth = 0;
  let offset = 0;
  let lineStart = 0;
  let atLineStart = true;
  let scalarNext = false;
  let afterIndicator = false;
  const open = (column: number): boolean => {
    while (columns.length > 0 && columns[columns.length - 1]! > column) columns.pop();
    if (columns.length === 0 || columns[columns.length - 1]! < column) columns.push(column);
    return columns.length + flowDepth > maxDepth;
  };
  for (const token of new Lexer().lex(text)) {
    const start = offset;
    // The lexer's markers (document, scalar, flow end, BOM) are not text of the source.
    if (token === CST.DOCUMENT || token === CST.BOM) {
      if (token === CST.DOCUMENT) columns.length = flowDepth = 0;
      continue;
    }
    if (token === CST.SCALAR) {
      scalarNext = true;
      continue;
    }
    if (token === CST.FLOW_END) {
      flowDepth = 0;
      continue;
    }
    offset += token.length;
    if (scalarNext) {
      // A plain or block scalar's text (a "[" in it is a character, not a bracket).
      scalarNext = false;
      if (flowDepth === 0 && (atLineStart || afterIndicator) && open(start - lineStart)) return start;
      atLineStart = afterIndicator = false;
      if (token.includes('\n')) {
        lineStart = start + token.lastIndexOf('\n') + 1;
        atLineStart = lineStart === offset;
      }
      continue;
    }
    const type = CST.tokenType(token);
    if (type === 'newline') {
      lineStart = offset;
      atLineStart = true;
      afterIndicator = false;
      continue;
    }
    if (type === 'space' || type === 'comment') continue;
    if (type === 'flow-seq-start' || type === 'flow-map-start') {
      flowDepth += 1;
      if (columns.length + flowDepth > maxDepth) return start;
    } else if (type === 'flow-seq-end' || type === 'flow-map-end') flowDepth = Math.max(0, flowDepth - 1);
    else if (type === 'doc-start') columns.length = flowDepth = 0;
    else if (
      flowDepth === 0 &&
      (atLineStart || afterIndicator || type === 'seq-item-ind' || type === 'explicit-key-ind')
    ) {
      if (open(start - lineStart)) return start;
    }
    afterIndicator = flowDepth === 0 && (type === 'seq-item-ind' || type === 'explicit-key-ind');
    // A quoted scalar may run over lines: the next token's column is counted from its last one.
    if (token.includes('\n')) lineStart = start + token.lastIndexOf('\n') + 1;
    atLineStart = false;
  }
  return null;
}

/**
 * Parses content YAML: deeper than MAX_YAML_DEPTH gives an empty document with one error at the
 * place (nothing is composed); otherwise the document, with each key that repeats an earlier one
 * of its mapping reported as yaml's DUPLICATE_KEY error. yaml's own check compares each key with
 * every earlier one (20,000 keys took seconds, 200,000 minutes); this one keeps a set per mapping.
 */
export function parseContentYaml(text: string, lineCounter: LineCounter): Document {
  const tooDeep = yamlTooDeepAt(text);
  if (tooDeep !== null) {
    lineCounter.addNewLine(0);
    for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1))
      lineCounter.addNewLine(at + 1);
    const document = new Document(null);
    document.errors.push(
      new YAMLParseError(
        [tooDeep, tooDeep + 1],
        'RESOURCE_EXHAUSTION',
        `nested more than ${MAX_YAML_DEPTH} levels deep (lists and mappings inside each other); no file needs that many, so it is not read`,
      ),
    );
    return document;
  }
  const document = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: false });
  reportDuplicateKeys(document);
  return document;
}

/** Adds DUPLICATE_KEY (where uniqueKeys: true puts it, at the repeated key) for each repeated scalar key. */
function reportDuplicateKeys(document: Document): void {
  visit(document, {
    Map(_key, map) {
      const seen = new Set<unknown>();
      for (const pair of map.items) {
        if (!isScalar(pair.key)) continue;
        if (!seen.has(pair.key.value)) seen.add(pair.key.value);
        else if (pair.key.range)
          document.errors.push(
            new YAMLParseError(
              [pair.key.range[0], pair.key.range[0] + 1],
              'DUPLICATE_KEY',
              'Map keys must be unique',
            ),
          );
      }
    },
  });
}
