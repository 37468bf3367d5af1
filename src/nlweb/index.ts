// INTERFACE ONLY — the NLWeb engineer replaces this file with the real room.
import type { Site } from '../content/index.js';

export interface AskService {
  readonly pageCount: number;
}

export declare function createAskService(site: Site, publicBaseUrl: string): AskService;
