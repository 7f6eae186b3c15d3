import { z } from 'zod';
import type { ImageMetadata } from './image-metadata.ts';
import type { Signal } from './signal.ts';
import vocabularyFile from './image-software.json' with { type: 'json' };

const entry = z.object({
  pattern: z.string().min(1),
  name: z.string().min(1),
  kind: z.enum(['editor', 'converter', 'camera_firmware', 'os_photo_app']),
  source: z.string().min(1),
  make_pattern: z.string().min(1).optional(),
});

/** The vocabulary (image-software.json, copied from the corpus's list with its sources), checked once at load. */
const vocabulary = z.object({ entries: z.array(entry).min(1), scanning: z.object({ names: z.array(z.string()) }) }).parse(vocabularyFile);

export interface SoftwareEntry {
  name: string;
  kind: z.infer<typeof entry>['kind'];
  /** Whether the program makes scans, screenshots or faxes rather than editing photos. */
  scanning: boolean;
  pattern: RegExp;
  makePattern: RegExp | null;
}

const scanningNames = new Set(vocabulary.scanning.names);
const entries: readonly SoftwareEntry[] = vocabulary.entries.map((item) => ({
  name: item.name,
  kind: item.kind,
  scanning: scanningNames.has(item.name),
  pattern: new RegExp(item.pattern, 'i'),
  makePattern: item.make_pattern ? new RegExp(item.make_pattern, 'i') : null,
}));
const unknownScanning = [...scanningNames].filter((name) => !entries.some((item) => item.name === name));
if (unknownScanning.length > 0) throw new Error(`image-software.json: scanning names no entry: ${unknownScanning.join(', ')}`);

/**
 * The first entry naming the program, in the vocabulary's order. Firmware strings are often bare version
 * numbers ("1.00", "9.3.1") that only identify a camera together with its maker, so a camera_firmware entry
 * counts only when EXIF Make matches its make_pattern.
 */
export function identifySoftware(value: string, make: string | undefined): SoftwareEntry | null {
  return entries.find((item) => item.pattern.test(value) && (item.kind !== 'camera_firmware' || !item.makePattern || (make !== undefined && item.makePattern.test(make)))) ?? null;
}

/** A program name read from the file, with the tag it came from and where that is. */
interface NamedSoftware {
  value: string;
  where: Signal['where'];
}

/**
 * Every program name the file carries: EXIF Software and ProcessingSoftware, XMP CreatorTool, each XMP
 * History step's softwareAgent, and PNG text chunks (tEXt Software, the Comment where GIMP writes
 * "Created with GIMP"). The same value in the same tag is named once.
 */
function namedSoftware(metadata: ImageMetadata): NamedSoftware[] {
  const { tags } = metadata;
  const named: NamedSoftware[] = [];
  const add = (value: string | undefined, where: Signal['where']): void => {
    if (value && !named.some((item) => item.value === value && item.where.exif_tag === where.exif_tag)) named.push({ value, where });
  };
  add(tags.ifd0?.Software, { exif_tag: 'Software' });
  add(tags.ifd0?.ProcessingSoftware, { exif_tag: 'ProcessingSoftware' });
  add(tags.xmp?.CreatorTool, { exif_tag: 'xmp:CreatorTool' });
  for (const event of tags.xmpMM?.History ?? []) add(event.softwareAgent, { exif_tag: 'xmpMM:History' });
  for (const text of metadata.pngText) {
    if (/^(software|comment)$/i.test(text.keyword)) add(text.text.trim().slice(0, 200), { exif_tag: `PNG:${text.keyword}`, ...(text.byteOffset !== null ? { byte_offset: text.byteOffset } : {}) });
  }
  return named;
}

/**
 * One signal per program name, weighed by what the program is. An editor or a photo app (which crops,
 * retouches and adjusts) is evidence the picture was changed: medium. A converter or transfer tool is
 * medium only on a photo whose EXIF still names its camera and capture time (the file is no longer the one
 * the camera wrote), and low otherwise (a file made by ImageMagick or Pillow says how it was made, not that
 * it was changed). Scanning software and camera firmware say where the picture came from: information.
 */
export function softwareSignals(metadata: ImageMetadata, camera: string): Signal[] {
  const make = metadata.tags.ifd0?.Make;
  const photo = camera !== '' && metadata.tags.exif?.DateTimeOriginal !== undefined;
  return namedSoftware(metadata).map(({ value, where }): Signal => {
    const tag = where.exif_tag;
    const program = identifySoftware(value, make);
    if (!program) {
      return { code: 'image_software', group: 'metadata', severity: 'info', title: 'Software named in metadata', found: `${tag} is "${value}", a name the vocabulary of editors, photo apps, converters and camera firmware does not hold.`, where };
    }
    if (program.scanning) {
      return { code: 'image_scan_software', group: 'metadata', severity: 'info', title: 'Made by scanning software', found: `${tag} is "${value}" (${program.name}): the picture is a scan, screenshot or fax, not a camera photo.`, where };
    }
    switch (program.kind) {
      case 'editor':
        return { code: 'image_editor_software', group: 'tampering', severity: 'medium', title: 'Saved by an image editor', found: `${tag} names an image editor, ${program.name}: "${value}".`, where };
      case 'os_photo_app':
        return { code: 'image_photo_app_software', group: 'tampering', severity: 'medium', title: 'Saved by a photo app', found: `${tag} names ${program.name}, a photo app that crops, rotates and adjusts pictures: "${value}".`, where };
      case 'converter':
        return photo
          ? { code: 'image_converter_software', group: 'tampering', severity: 'medium', title: 'Camera photo re-saved by software', found: `${tag} names ${program.name}, a converter or transfer tool: "${value}". The file is no longer the one the camera "${camera}" wrote: software saved it again (some tools rewrite only the metadata).`, where }
          : { code: 'image_converter_software', group: 'metadata', severity: 'low', title: 'Made by a converter', found: `${tag} names ${program.name}, a converter: "${value}". It says how the file was made, not whether its picture was changed.`, where };
      case 'camera_firmware':
        return { code: 'image_camera_firmware', group: 'metadata', severity: 'info', title: 'Camera firmware', found: `${tag} is "${value}", the firmware form of ${program.name}${make ? ` (EXIF Make "${make}")` : ''}.`, where };
    }
  });
}
