import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from '@playwright/test';

/** Every file under `dir` (recursively), as paths relative to it. */
export async function listFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (current: string) => {
    for (const entry of await readdir(current, { withFileTypes: true })) {
      const full = path.join(current, entry.name);
      if (entry.isDirectory()) await walk(full);
      else if (entry.isFile()) out.push(path.relative(dir, full));
    }
  };
  await walk(dir);
  return out.sort();
}

/**
 * Which files of `dir` contain `needle`, read as bytes: UTF-8 and UTF-16LE (SQLite can store
 * either), so a secret cannot hide in a database page, a WAL frame or a log line.
 */
export async function filesContaining(dir: string, needle: string): Promise<string[]> {
  const patterns = [Buffer.from(needle, 'utf8'), Buffer.from(needle, 'utf16le')];
  const hits: string[] = [];
  for (const file of await listFiles(dir)) {
    const bytes = await readFile(path.join(dir, file));
    if (patterns.some((p) => bytes.includes(p))) hits.push(file);
  }
  return hits;
}

/**
 * Everything the page exposes that a secret could hide in: the DOM's markup (text and attribute
 * values), the live values of form controls, both web storages, IndexedDB database names, cookies
 * and Cache Storage names.
 */
export async function rendererSurfaces(page: Page): Promise<Record<string, string>> {
  return page.evaluate(async () => {
    const storage = (s: Storage) => {
      const entries: string[] = [];
      for (let i = 0; i < s.length; i++) {
        const key = s.key(i) ?? '';
        entries.push(`${key}=${s.getItem(key) ?? ''}`);
      }
      return entries.join('\n');
    };
    const controls = [...document.querySelectorAll('input, textarea, select')].map(
      (el) => (el as HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement).value,
    );
    const databases = 'databases' in indexedDB ? (await indexedDB.databases()).map((d) => d.name ?? '') : [];
    const caches = 'caches' in window ? await window.caches.keys() : [];
    return {
      dom: document.documentElement.outerHTML,
      title: document.title,
      controls: controls.join('\n'),
      localStorage: storage(localStorage),
      sessionStorage: storage(sessionStorage),
      indexedDB: databases.join('\n'),
      cookies: document.cookie,
      caches: caches.join('\n'),
      url: location.href,
    };
  });
}
