import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import productVocabulary from './image-software.json' with { type: 'json' };
import { identifySoftware } from './image-software.ts';

interface CorpusEntry {
  pattern: string;
  name: string;
  kind: string;
  examples: string[];
  make_pattern?: string;
}

const corpusVocabulary = JSON.parse(readFileSync(new URL('../../../fixtures/corpora/image-software/software.json', import.meta.url), 'utf8')) as { entries: CorpusEntry[] };

/** A maker name the entry's make_pattern accepts: its first alternative, without the regular-expression syntax. */
function sampleMake(pattern: string): string {
  return pattern.replace(/^\^?\(?/, '').split('|')[0]!.replace(/[()^$\\]/g, '');
}

test('the checker uses the corpus vocabulary unchanged', () => {
  assert.deepEqual(productVocabulary.entries, corpusVocabulary.entries);
});

test('every example value of the vocabulary is identified as a program of its own kind', () => {
  const wrong: string[] = [];
  for (const entry of corpusVocabulary.entries) {
    const make = entry.make_pattern ? sampleMake(entry.make_pattern) : undefined;
    if (make !== undefined) assert.match(make, new RegExp(entry.make_pattern!, 'i'), `sample make for ${entry.name}`);
    for (const example of entry.examples) {
      const found = identifySoftware(example, make);
      if (found?.kind !== entry.kind) wrong.push(`"${example}" (${entry.name}, ${entry.kind}) read as ${found ? `${found.name}, ${found.kind}` : 'nothing'}`);
    }
  }
  assert.deepEqual(wrong, []);
});

test('the programs users found missed are named, each as what it is', () => {
  const cases: [string, string, string][] = [
    ['darktable 4.6.1', 'darktable', 'editor'],
    ['Shotwell 0.30.10', 'Shotwell', 'os_photo_app'],
    ['digiKam-0.9.4-beta4', 'digiKam', 'editor'],
    ['LightZone', 'LightZone', 'editor'],
    ['GraphicConverter', 'GraphicConverter', 'editor'],
    ['Microsoft Photo Gallery 16.4.3528.331', 'Windows (Live) Photo Gallery', 'os_photo_app'],
    ['Windows Live Photo Gallery', 'Windows (Live) Photo Gallery', 'os_photo_app'],
    ['GIMP 2.10.34', 'GIMP', 'editor'],
    ['Nikon Transfer 1.1 W', 'Nikon Transfer', 'converter'],
  ];
  for (const [value, name, kind] of cases) {
    const found = identifySoftware(value, undefined);
    assert.deepEqual([found?.name, found?.kind], [name, kind], value);
  }
});

test('a bare firmware number names a camera only beside the maker that writes it', () => {
  assert.equal(identifySoftware('9.3.1', 'Apple')?.kind, 'camera_firmware');
  assert.equal(identifySoftware('9.3.1', 'Canon'), null);
  assert.equal(identifySoftware('1.00', 'CASIO COMPUTER CO.,LTD.')?.kind, 'camera_firmware');
  assert.equal(identifySoftware('1.00', undefined), null);
});

test('scanning software is marked as making scans, editors are not', () => {
  assert.equal(identifySoftware('VueScan 9 x64 (9.6.01)', 'Epson')?.scanning, true);
  assert.equal(identifySoftware('Kofax standard Multi-Page TIFF Storage Filter v3.03.000', undefined)?.scanning, true);
  assert.equal(identifySoftware('Adobe Photoshop CS6 (Windows)', undefined)?.scanning, false);
});
