import { DOMMatrix, ImageData, Path2D } from '@napi-rs/canvas';

/**
 * pdfjs fills in missing DOM classes when its module loads, from the copy of @napi-rs/canvas it nests
 * (0.1.x). Our page canvas is the 1.x copy, which rejects the nested copy's Path2D: every filled or stroked
 * path (a rectangle, a table rule) failed to render. Imported by pdf.ts before pdfjs so pdfjs finds these.
 */
globalThis.Path2D ??= Path2D as unknown as typeof globalThis.Path2D;
globalThis.ImageData ??= ImageData as unknown as typeof globalThis.ImageData;
globalThis.DOMMatrix ??= DOMMatrix as unknown as typeof globalThis.DOMMatrix;
