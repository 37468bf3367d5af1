/**
 * Text made safe where it is shown: escaping for HTML (and JSON inside a script block) and for a
 * terminal or a log. No room's knowledge, only the rules of each medium; every room escapes here.
 */
export { escapeHtml, jsonForScript } from './html-escape.js';
export { escapeForTerminal, escapeJsonForTerminal } from './terminal-escape.js';
