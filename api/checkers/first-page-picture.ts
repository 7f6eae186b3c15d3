import sharp from 'sharp';
import { normaliseImage } from '../documents/image.ts';
import type { OcrSession } from '../documents/ocr.ts';
import type { MrzOcrSession } from '../documents/ocr-mrz.ts';
import type { PageText } from '../documents/types.ts';
import { readMrz, readPassportFoot, type MrzRead } from './identity/mrz-read.ts';

/**
 * Page 1 of a photographed or scanned identity document, read the way a person would turn it to read it.
 * Measured on the identity corpus (fixtures/corpora/identity/), three things defeat one plain OCR pass:
 *
 * - a thumbnail (a card 300 pixels wide): its letters are below the height tesseract reads, so a picture
 *   whose longer side is under `SMALL_SIDE` is enlarged first;
 * - a card on a patterned background (a US green card, an insurance card): tesseract's own binarisation
 *   turns the whole card into one picture region and reads nothing, so a page that gave fewer than
 *   `FEW_WORDS` words is read again binarised, and the read with more words is kept;
 * - a page turned on its side (an EXIF orientation that contradicts the pixels, a zone printed sideways):
 *   when no zone was found and the page gave fewer than `WEAK_WORDS` words or an unsure read, the picture
 *   is read turned a quarter each way, and a turn that shows a zone (or reads far more words) is taken;
 * - a passport whose zone no page line showed (glare, blur): the foot of the data page is read as a band.
 *
 * Each retry runs only when the plain read failed in its way, so a clear photo is read once.
 */
const SMALL_SIDE = 1_000;
const MAX_ENLARGEMENT = 2.5;
const FEW_WORDS = 6;
const WEAK_WORDS = 20;
/** Mean word confidence (0..1) under which a read is taken as possibly sideways: tesseract reads turned text as confident nonsense less often than upright text. */
const UNSURE_READ = 0.45;
/** A grey level between a card's printing and its tinted background (tesseract's Otsu threshold fails on these). */
const BINARY_THRESHOLD = 140;

export interface PictureRead {
  page: PageText;
  zone: MrzRead | null;
  /** How the picture was prepared, when it was not read as sent, e.g. `enlarged 2.5 times`, `turned 90°`. */
  preparation: string[];
}

export async function readPicture(bytes: Uint8Array, ocr: OcrSession, shapes: MrzOcrSession): Promise<PictureRead> {
  const image = await normaliseImage(bytes);
  const preparation: string[] = [];
  let picture = image.png;
  let scale = image.scale;
  const longer = Math.max(image.width, image.height);
  if (longer < SMALL_SIDE) {
    const factor = Math.min(MAX_ENLARGEMENT, SMALL_SIDE / longer);
    picture = new Uint8Array(await sharp(picture).resize({ width: Math.round(image.width * factor), kernel: 'lanczos3' }).png().toBuffer());
    scale *= factor;
    preparation.push(`enlarged ${factor.toFixed(1)} times`);
  }
  const reader = await ocr.reader();
  let page = await reader.readPage(picture, 1, scale);
  if (wordsIn(page) < FEW_WORDS) {
    const binarised = new Uint8Array(await sharp(picture).greyscale().threshold(BINARY_THRESHOLD).png().toBuffer());
    const again = await reader.readPage(binarised, 1, scale);
    if (wordsIn(again) > wordsIn(page)) {
      page = again;
      preparation.push('binarised');
    }
  }
  // The zone is cut from the picture as sent: its band is enlarged once, to the height the zone reader wants.
  let zone = await zoneOf(page, image.png, ocr, shapes);
  if (zone === null && (wordsIn(page) < WEAK_WORDS || page.confidence < UNSURE_READ)) {
    for (const angle of [90, 270]) {
      const turned = new Uint8Array(await sharp(picture).rotate(angle).png().toBuffer());
      const turnedPage = await reader.readPage(turned, 1, scale);
      const turnedZone = await zoneOf(turnedPage, new Uint8Array(await sharp(image.png).rotate(angle).png().toBuffer()), ocr, shapes);
      if (turnedZone !== null || wordsIn(turnedPage) > 2 * Math.max(wordsIn(page), 3)) {
        // A zone printed sideways beside upright printing (a Latvian travel document): the zone from the turn, the words from whichever read more.
        return { page: wordsIn(turnedPage) >= wordsIn(page) ? turnedPage : page, zone: turnedZone, preparation: [...preparation, `turned ${angle}°`] };
      }
    }
  }
  // The foot is searched too when the band read gave a zone whose check digits fail: a blurred band may give
  // lines of the zone's lengths that the foot, cut wider, reads right.
  if ((zone === null || !zone.zone?.valid) && PASSPORT_WORDS.test(page.text)) {
    const foot = await readPassportFoot(image.png, { shapes, lines: ocr });
    if (foot.zone !== null && verifying(foot) > (zone === null ? -1 : verifying(zone))) {
      zone = foot;
      preparation.push('zone searched at the foot of the page');
    }
  }
  return { page, zone, preparation };
}

function verifying(read: MrzRead): number {
  return read.zone?.checks.filter((check) => check.valid).length ?? -1;
}

/** Words of a passport's data page: where no zone line was seen on such a page, its foot is searched (readPassportFoot). */
const PASSPORT_WORDS = /PASS|PASAPORT|PASZPORT|PASSEPORT|PUTOVNICA|CESTOVN/i;

async function zoneOf(page: PageText, picture: Uint8Array, ocr: OcrSession, shapes: MrzOcrSession): Promise<MrzRead | null> {
  const read = await readMrz(page, picture, { shapes, lines: ocr });
  return read.zone === null ? null : read;
}

/** Words of three or more letters: what a read of real printing gives and a read of texture does not. */
export function wordsIn(page: PageText): number {
  return (page.text.match(/\p{L}{3,}/gu) ?? []).length;
}
