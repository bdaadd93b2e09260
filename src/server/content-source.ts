/**
 * Builds the content source the configuration names: a watched folder (`CONTENT_DIR`) or this service's own
 * follower of a Git branch (`CONTENT_GIT_URL`).
 */
import type { Logger } from 'pino';
import { FolderSource } from '../source/folder-source.js';
import { redactUrl } from '../git/redact.js';
import type { ContentSource } from '../source/types.js';
import type { ContentSourceConfig } from './config.js';

/** Options of {@link createContentSource}. */
export interface ContentSourceOptions {
  logger: Logger;
  /** Keep following the source after the first load (default true). */
  follow?: boolean;
  /** Folder mode: the watcher's quiet time, in milliseconds. */
  debounceMs?: number;
}

/** The source for `config`; nothing runs until its `start()`. The Git follower is loaded only when configured. */
export async function createContentSource(config: ContentSourceConfig, options: ContentSourceOptions): Promise<ContentSource> {
  const logger = options.logger.child({ component: 'content-source' });
  if (config.kind === 'folder') {
    return new FolderSource({
      dir: config.dir,
      logger,
      follow: options.follow ?? true,
      ...(options.debounceMs !== undefined && { debounceMs: options.debounceMs }),
    });
  }
  const { GitFollower } = await import('../source/git-follower.js');
  return new GitFollower({
    url: config.url,
    ref: config.ref,
    path: config.path,
    pollSeconds: config.pollSeconds,
    historyDepth: config.historyDepth,
    maxContentBytes: config.maxContentMiB * 1024 * 1024,
    cacheDir: config.cacheDir,
    logger,
  });
}

/** For logs and start-up errors (never `/health`): the folder, or the repository (without credentials) and branch. */
export function describeContentSource(config: ContentSourceConfig): string {
  return config.kind === 'folder' ? config.dir : `${redactUrl(config.url)} (branch ${config.ref}, folder ${config.path})`;
}
