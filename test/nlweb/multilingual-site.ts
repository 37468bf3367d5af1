import type { AskResult, NlWebResponse } from '../../src/contract/index.js';

/** One site in three languages: English at the top, German and French folders, a page in English only. */
export const FILES: Record<string, string> = {
  '_site.yaml': 'name: Example\nlanguage: en\n',
  'index.md': '# Archives\n\nCreate an archive and compress the files of a folder.\n',
  'extract.md': '# Extracting\n\nUnpack an archive into a folder to get its files back.\n',
  'backup.md': '# Backups\n\nKeep a backup of every archive on a second disk.\n',
  'de/index.md': '# Archive\n\nErstelle ein Archiv und komprimiere die Dateien eines Ordners.\n',
  'de/extract.md': '# Entpacken\n\nEin Archiv in einen Ordner entpacken, um die Dateien zurückzubekommen.\n',
  'fr/index.md': '# Archives\n\nCréer une archive et compresser les fichiers d’un dossier.\n',
  'fr/extract.md': '# Extraire\n\nExtraire une archive dans un dossier pour retrouver ses fichiers.\n',
};

/** The same site with a Japanese folder too (a script only one language writes). */
export const FILES_WITH_JAPANESE: Record<string, string> = {
  ...FILES,
  'ja/index.md': '# アーカイブ\n\nアーカイブを作成して、フォルダーのファイルを圧縮します。\n',
  'ja/extract.md': '# 展開\n\nアーカイブをフォルダーに展開して、ファイルを取り出します。\n',
};

/** The results of an answer, in order. */
export function resultsOf(body: NlWebResponse): AskResult[] {
  return body.content.flatMap((item) => (item.type === 'resource' ? [item.resource.data as AskResult] : []));
}
