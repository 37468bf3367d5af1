// INTERFACE ONLY — the content engineer replaces this file with the real room.
export type { ContentProblem, Heading, Page, Passage, Site, SiteInfo } from './types.js';
import type { ContentProblem, Site } from './types.js';

export declare function loadSite(contentDir: string): Promise<{ site: Site; problems: ContentProblem[] }>;
