import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { AppShell } from './pages/AppShell.ts';

// Every script of the operators' data renders on every machine: the app bundles Noto Sans faces
// for eight Indic scripts (renderer/src/styles/fonts.css), loaded only when a script is shown.
// The proof is in pixels: two different Devanagari letters drawn in the app's font must differ.
// Without a font that has them, both are drawn as the same empty box (.notdef "tofu"), which is
// what this machine's system fonts give.

const SCRIPTS = [
  { family: 'Noto Sans Devanagari', name: 'राम शर्मा', city: 'मुंबई', letters: ['क', 'म'] },
  { family: 'Noto Sans Bengali', name: 'সুমিত্রা দাস', city: 'কলকাতা', letters: ['ক', 'ম'] },
  { family: 'Noto Sans Tamil', name: 'கமலா', city: 'சென்னை', letters: ['க', 'ம'] },
  { family: 'Noto Sans Telugu', name: 'కమల', city: 'హైదరాబాద్', letters: ['క', 'మ'] },
  { family: 'Noto Sans Gujarati', name: 'કમલા', city: 'અમદાવાદ', letters: ['ક', 'મ'] },
  { family: 'Noto Sans Gurmukhi', name: 'ਕਮਲਾ', city: 'ਅੰਮ੍ਰਿਤਸਰ', letters: ['ਕ', 'ਮ'] },
  { family: 'Noto Sans Kannada', name: 'ಕಮಲಾ', city: 'ಬೆಂಗಳೂರು', letters: ['ಕ', 'ಮ'] },
  { family: 'Noto Sans Malayalam', name: 'കമല', city: 'കൊച്ചി', letters: ['ക', 'മ'] },
];

/** Screenshots of `letters`, each drawn alone in `fontFamily` at 40px, from a probe in the page. */
async function drawLetters(page: Page, letters: string[], fontFamily: string): Promise<Buffer[]> {
  const shots: Buffer[] = [];
  for (const letter of letters) {
    await page.evaluate(
      ({ letter, fontFamily }) => {
        document.getElementById('glyph-probe')?.remove();
        const probe = document.createElement('span');
        probe.id = 'glyph-probe';
        probe.textContent = letter;
        Object.assign(probe.style, {
          position: 'fixed',
          left: '0',
          top: '0',
          zIndex: '1000',
          width: '64px',
          height: '64px',
          fontSize: '40px',
          lineHeight: '64px',
          textAlign: 'center',
          background: '#fff',
          color: '#000',
          fontFamily,
        });
        document.body.append(probe);
      },
      { letter, fontFamily },
    );
    await page.evaluate(() => document.fonts.ready.then(() => undefined));
    shots.push(await page.locator('#glyph-probe').screenshot());
  }
  return shots;
}

const facesOf = (page: Page, family: string) =>
  page.evaluate(
    (family) => [...document.fonts].filter((f) => f.family.replace(/"/g, '') === family).map((f) => f.status),
    family,
  );

test('Indic names and cities render with glyphs from the bundled fonts, loaded only when shown', async ({
  page,
  desk,
}, testInfo) => {
  const shell = new AppShell(page);
  await shell.open(desk.url);

  // Bundled, and not fetched while no such text is on screen.
  for (const { family } of SCRIPTS) {
    const faces = await facesOf(page, family);
    expect(faces.length, `${family} is bundled`).toBeGreaterThan(0);
    expect(faces, `${family} is not loaded before its script is shown`).not.toContain('loaded');
  }

  const csv =
    'Name,Mobile Number,City\n' +
    SCRIPTS.map((s, i) => `${s.name},98765432${String(10 + i)},${s.city}`).join('\n') +
    '\n';
  await page
    .getByLabel('Choose a CSV file')
    .setInputFiles({ name: 'scripts.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  const nameCell = page.getByRole('gridcell', { name: SCRIPTS[0]!.name });
  await expect(nameCell).toBeVisible({ timeout: 30_000 });
  await page.evaluate(() => document.fonts.ready.then(() => undefined));

  // Shown in the grid: each script's face has been fetched (the CSP allows it) and used.
  for (const { family } of SCRIPTS) expect(await facesOf(page, family), family).toContain('loaded');
  const gridShot = testInfo.outputPath('grid-indic-names.png');
  await page.getByRole('grid').screenshot({ path: gridShot });
  await testInfo.attach('grid with Indic names and cities', { path: gridShot, contentType: 'image/png' });

  // Two different letters of each script, in the app's own font stack, are two different pictures.
  const appFont = await page.evaluate(() => getComputedStyle(document.body).fontFamily);
  for (const { family, letters } of SCRIPTS) {
    const [a, b] = await drawLetters(page, letters, appFont);
    expect(a!.equals(b!), `${family}: "${letters[0]}" and "${letters[1]}" are drawn as the same box`).toBe(
      false,
    );
  }

  // For the record: what the system fonts alone draw here (no bundled face in the stack).
  const [sysA, sysB] = await drawLetters(page, SCRIPTS[0]!.letters, 'sans-serif');
  testInfo.annotations.push({
    type: 'system fonts',
    description: sysA!.equals(sysB!)
      ? 'this machine has no Devanagari font: without the bundled faces the names would be empty boxes'
      : 'this machine has a system Devanagari font too',
  });
});
