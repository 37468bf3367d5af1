import { describe, expect, it } from 'vitest';
import { readRecording, sampleSiteAnswers, writeRecording } from './sample-contract.js';

describe('the sample site’s published contract (forms from the default configuration)', () => {
  it('answers every recorded request exactly as recorded (test/fixtures/sample-contract.json)', async () => {
    const answers = await sampleSiteAnswers();
    if (process.env.RECORD_SAMPLE_CONTRACT === '1') writeRecording(answers);
    const recorded = readRecording();
    expect(answers.map((answer) => answer.request)).toEqual(recorded.map((answer) => answer.request));
    for (const [index, answer] of answers.entries()) expect(answer, answer.request).toEqual(recorded[index]);
  }, 60_000);
});
