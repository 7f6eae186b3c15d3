import { layoutPdf, type PlacedText } from './layout-pdf.ts';

const lines = (x: number, top: number, texts: string[], pitch = 13): PlacedText[] => texts.map((text, i) => ({ text, x, top: top + i * pitch }));

/** A report page: title, section heading, paragraph, list, table; then a page in two columns. */
export async function reportPdf(): Promise<Uint8Array> {
  return layoutPdf([
    {
      texts: [
        { text: 'Site Safety Report', x: 50, top: 40, size: 20 },
        { text: '1 Summary', x: 50, top: 80, size: 14 },
        ...lines(50, 104, ['The inspection on 3 March found the site in good order.', 'Two items need attention before the next pour.', 'Details follow in the sections below.']),
        ...lines(60, 160, ['• Replace the damaged edge protection on level 2.', '• Clear the access path by the north gate.', '• Restock the first aid kit.']),
        { text: '2 Readings', x: 50, top: 220, size: 14 },
        { text: 'Location', x: 50, top: 250 },
        { text: 'Noise dB', x: 250, top: 250 },
        { text: 'Dust', x: 400, top: 250 },
        { text: 'Gate', x: 50, top: 266 },
        { text: '78', x: 250, top: 266 },
        { text: 'Low', x: 400, top: 266 },
        { text: 'Crane pad', x: 50, top: 282 },
        { text: '85', x: 250, top: 282 },
        { text: 'High', x: 400, top: 282 },
        ...lines(50, 320, ['Readings were taken at noon.']),
      ],
    },
    {
      texts: [
        { text: '3 Observations', x: 50, top: 40, size: 14 },
        ...lines(50, 70, ['Left column first line of text here', 'left column second line of the text', 'left column third and last line.']),
        ...lines(320, 70, ['Right column begins with this line', 'right column carries on with more', 'right column ends the observations.']),
      ],
    },
  ]);
}
