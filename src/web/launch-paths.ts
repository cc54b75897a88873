import { existsSync, realpathSync } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';
import { FILE_PATH_FORMAT } from '../core/config/file-path.js';
import type { ConfigIssue, JsonObject } from '../core/index.js';

/** Where the launch page finds suites and scenarios to offer (paths are the server's). */
export interface LaunchFolders {
  /** Folders of item suites (each holding .jsonl files), e.g. data/samples. */
  suites: string[];
  /** Folders of scenario files (.yaml), e.g. scenarios. */
  scenarios: string[];
  /** Other folders a launch may name files in (price tables, scripts, learning units), e.g. data. */
  data?: string[];
  /** The server's working folder: run kinds resolve paths from it, so paths inside it are given relative to it. */
  base: string;
}

/**
 * The problems of a launch config's file fields: every path a page names (the fields a kind's
 * schema marks as paths) must lie in a folder the server offers (suites, scenarios, data), after
 * following links. Otherwise a page could have the server read any file it can, and show the
 * start of it in an error ("not valid JSON: root:x:0:0...").
 */
export function launchPathIssues(schema: JsonObject, config: JsonObject, folders: LaunchFolders): ConfigIssue[] {
  const roots = offeredRoots(folders);
  const props = (schema['properties'] ?? {}) as Record<string, { format?: string; items?: { format?: string } }>;
  const issues: ConfigIssue[] = [];
  for (const [field, prop] of Object.entries(props)) {
    const value = config[field];
    if (value === undefined) continue;
    const paths = prop.format === FILE_PATH_FORMAT ? [value] : prop.items?.format === FILE_PATH_FORMAT && Array.isArray(value) ? value : [];
    for (const [i, p] of paths.entries()) {
      if (typeof p !== 'string') continue;
      const at = real(resolve(folders.base, p));
      if (roots.some(root => inside(root, at))) continue;
      issues.push({
        field: Array.isArray(value) ? `${field}.${i}` : field,
        message: `"${p}" is not in a folder this server offers (${roots.map(r => shown(folders.base, r)).join(', ')}); put the file there, or run it with the CLI`,
      });
    }
  }
  return issues;
}

// Each folder once: suites and data can be the same folder, and the messages list them.
const offeredRoots = (folders: LaunchFolders) => [...new Set([...folders.suites, ...folders.scenarios, ...(folders.data ?? [])].map(real))];

/**
 * Whether the server reads a file that an input names (a scenario's script or task file): only
 * inside the folders it offers, after following links; else why not, for the field that names it.
 * Without it a scenario saved or launched from a page could have the server read any file, and
 * show it (an error quoting its start, its rows as a dialogue's prompts).
 */
export function readableIn(folders: LaunchFolders): (path: string) => string | undefined {
  const roots = offeredRoots(folders);
  return path => (roots.some(root => inside(root, real(path))) ? undefined
    : `the web app reads files only in the folders it offers (${roots.map(r => shown(folders.base, r)).join(', ')}); put ${path} in one of them, or run the scenario with the CLI`);
}

/** The path with links followed (a path that does not exist is left as it is: the run kind says it is missing). */
function real(p: string): string {
  return existsSync(p) ? realpathSync(p) : resolve(p);
}

/** A folder as the page should read it: relative to the server's working folder when inside it. */
function shown(base: string, folder: string): string {
  return inside(real(base), folder) ? relative(real(base), folder) || '.' : folder;
}

function inside(root: string, p: string): boolean {
  const r = relative(root, p);
  return r === '' || (!r.startsWith('..') && !isAbsolute(r));
}
