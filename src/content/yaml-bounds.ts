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
import { Composer, CST, Document, isScalar, Lexer, Parser, visit, YAMLParseError } from 'yaml';

/** Deepest nesting of collections (mappings and lists, block or flow) content YAML may have. */
export const MAX_YAML_DEPTH = 64;

/**
 * Measures nesting from the lexer's tokens, one at a time (the lexer makes them without
 * recursion), so the parser can be fed the same tokens and stopped at the first one too deep.
 *
 * Flow brackets count exactly; block nesting counts each indentation column still open: a line's
 * first token, each `- ` or `? ` (`- - - x` is three lists deep) and the token after one (`- k: v`
 * is a mapping in a list). It may count one level more than the parser (a scalar after `- `) or
 * one less (a list at its key's own column), never more than one off.
 */
class DepthGauge {
  private readonly columns: number[] = [];
  private flowDepth = 0;
  private offset = 0;
  private lineStart = 0;
  private atLineStart = true;
  private scalarNext = false;
  private afterIndicator = false;

  constructor(private readonly maxDepth: number) {}

  /** Takes the lexer's next token: its offset when it nests deeper than the limit, else null. */
  step(token: string): number | null {
    const start = this.offset;
    // The lexer's markers (document, scalar, flow end, BOM) are not text of the source.
    if (token === CST.DOCUMENT || token === CST.BOM) {
      if (token === CST.DOCUMENT) this.columns.length = this.flowDepth = 0;
      return null;
    }
    if (token === CST.SCALAR) {
      this.scalarNext = true;
      return null;
    }
    if (token === CST.FLOW_END) {
      this.flowDepth = 0;
      return null;
    }
    this.offset += token.length;
    if (this.scalarNext) {
      // A plain or block scalar's text (a "[" in it is a character, not a bracket).
      this.scalarNext = false;
      const opens = this.flowDepth === 0 && (this.atLineStart || this.afterIndicator);
      this.atLineStart = this.afterIndicator = false;
      const tooDeep = opens && this.open(start - this.lineStart);
      if (token.includes('\n')) {
        this.lineStart = start + token.lastIndexOf('\n') + 1;
        this.atLineStart = this.lineStart === this.offset;
      }
      return tooDeep ? start : null;
    }
    const type = CST.tokenType(token);
    if (type === 'newline') {
      this.lineStart = this.offset;
      this.atLineStart = true;
      this.afterIndicator = false;
      return null;
    }
    if (type === 'space' || type === 'comment') return null;
    let tooDeep = false;
    if (type === 'flow-seq-start' || type === 'flow-map-start') {
      this.flowDepth += 1;
      tooDeep = this.columns.length + this.flowDepth > this.maxDepth;
    } else if (type === 'flow-seq-end' || type === 'flow-map-end')
      this.flowDepth = Math.max(0, this.flowDepth - 1);
    else if (type === 'doc-start') this.columns.length = this.flowDepth = 0;
    else if (
      this.flowDepth === 0 &&
      (this.atLineStart || this.afterIndicator || type === 'seq-item-ind' || type === 'explicit-key-ind')
    )
      tooDeep = this.open(start - this.lineStart);
    this.afterIndicator = this.flowDepth === 0 && (type === 'seq-item-ind' || type === 'explicit-key-ind');
    // A quoted scalar may run over lines: the next token's column is counted from its last one.
    if (token.includes('\n')) this.lineStart = start + token.lastIndexOf('\n') + 1;
    this.atLineStart = false;
    return tooDeep ? start : null;
  }

  /** A block collection at `column`: closes the deeper ones; whether the nesting is now too deep. */
  private open(column: number): boolean {
    const { columns } = this;
    while (columns.length > 0 && columns[columns.length - 1]! > column) columns.pop();
    if (columns.length === 0 || columns[columns.length - 1]! < column) columns.push(column);
    return columns.length + this.flowDepth > this.maxDepth;
  }
}

/** Where `text` first nests deeper than `maxDepth`, as an offset into it, or null (DepthGauge). */
export function yamlTooDeepAt(text: string, maxDepth = MAX_YAML_DEPTH): number | null {
  const gauge = new DepthGauge(maxDepth);
  for (const token of new Lexer().lex(text)) {
    const tooDeep = gauge.step(token);
    if (tooDeep !== null) return tooDeep;
  }
  return null;
}

/**
 * Parses content YAML as yaml's parseDocument does, from one pass of the lexer whose tokens are
 * measured (DepthGauge) before the parser takes them: deeper than MAX_YAML_DEPTH gives an empty
 * document with one error at the place, nothing composed. Each key that repeats an earlier one of
 * its mapping is reported as yaml's DUPLICATE_KEY error: yaml's own check compares each key with
 * every earlier one (20,000 keys took seconds, 200,000 minutes); this one keeps a set per mapping.
 */
export function parseContentYaml(text: string, lineCounter: LineCounter): Document {
  const gauge = new DepthGauge(MAX_YAML_DEPTH);
  const parser = new Parser(lineCounter.addNewLine);
  let tooDeep: number | null = null;
  function* tokens() {
    lineCounter.addNewLine(0);
    for (const token of new Lexer().lex(text)) {
      tooDeep = gauge.step(token);
      if (tooDeep !== null) return;
      yield* parser.next(token);
    }
    yield* parser.end();
  }
  let document: Document | null = null;
  for (const composed of new Composer({ uniqueKeys: false }).compose(tokens(), true, text.length)) {
    if (document === null) document = composed;
    else {
      document.errors.push(
        new YAMLParseError(
          [composed.range[0], composed.range[1]],
          'MULTIPLE_DOCS',
          'Source contains multiple documents; please use YAML.parseAllDocuments()',
        ),
      );
      break;
    }
  }
  if (tooDeep !== null) {
    const refused = new Document(null);
    refused.errors.push(
      new YAMLParseError(
        [tooDeep, tooDeep + 1],
        'RESOURCE_EXHAUSTION',
        `nested more than ${MAX_YAML_DEPTH} levels deep (lists and mappings inside each other); no file needs that many, so it is not read`,
      ),
    );
    return refused;
  }
  reportDuplicateKeys(document!);
  return document!;
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
