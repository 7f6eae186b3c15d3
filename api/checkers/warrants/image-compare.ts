import sharp from 'sharp';

/** Side of the grey square both pictures are reduced to before comparing: coarse enough to ignore JPEG noise. */
export const greySide = 24;

export interface PictureDifference {
  /** Width/height of the image and of the thumbnail. */
  imageAspect: number;
  thumbnailAspect: number;
  /** Mean absolute difference of the two grey squares, 0–255, over the readings tried (the closest one). */
  meanDifference: number;
}

/**
 * How far an embedded thumbnail is from the image it claims to preview. Cameras store a fixed 160×120
 * thumbnail either squeezed to that shape or letterboxed with black bars, so both readings are tried
 * (the thumbnail stretched over the image, and with black bars trimmed) and the closer one counts. Returns
 * null when the thumbnail cannot be decoded.
 */
export async function compareThumbnail(image: Uint8Array, thumbnail: Uint8Array): Promise<PictureDifference | null> {
  const imageMeta = await sharp(image, { failOn: 'none' }).metadata();
  const imageAspect = (imageMeta.width ?? 1) / (imageMeta.height ?? 1);
  let previews: Uint8Array[];
  let thumbnailAspect: number;
  try {
    const meta = await sharp(thumbnail, { failOn: 'none' }).metadata();
    thumbnailAspect = (meta.width ?? 1) / (meta.height ?? 1);
    previews = [await greySquare(thumbnail)];
    if (Math.abs(thumbnailAspect / imageAspect - 1) > 0.03) {
      const trimmed = await sharp(thumbnail, { failOn: 'none' }).trim({ background: '#000000', threshold: 24 }).toBuffer();
      previews.push(await greySquare(new Uint8Array(trimmed)));
    }
  } catch {
    return null;
  }
  const imageGrey = await greySquare(image);
  const differences = previews.map((preview) => imageGrey.reduce((sum, value, index) => sum + Math.abs(value - preview[index]!), 0) / imageGrey.length);
  return { imageAspect, thumbnailAspect, meanDifference: Math.min(...differences) };
}

async function greySquare(picture: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(await sharp(picture, { failOn: 'none' }).greyscale().resize(greySide, greySide, { fit: 'fill', kernel: 'cubic' }).raw().toBuffer());
}
