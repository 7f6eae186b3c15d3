import sharp from 'sharp';

/** Side of the grey square both pictures are reduced to before comparing: coarse enough to ignore JPEG noise. */
const side = 24;

export interface PictureDifference {
  /** Width/height of the image and of the thumbnail (after trimming letterbox bars). */
  imageAspect: number;
  thumbnailAspect: number;
  /** Mean absolute difference of the two grey squares, 0–255. */
  meanDifference: number;
}

/**
 * How far an embedded thumbnail is from the image it claims to preview. Cameras letterbox thumbnails to a
 * fixed 160×120, so when the shapes differ black bars are trimmed off the thumbnail first. Returns null when
 * the thumbnail cannot be decoded.
 */
export async function compareThumbnail(image: Uint8Array, thumbnail: Uint8Array): Promise<PictureDifference | null> {
  const imageMeta = await sharp(image).metadata();
  const imageAspect = (imageMeta.width ?? 1) / (imageMeta.height ?? 1);
  let preview: Uint8Array;
  let previewAspect: number;
  try {
    const meta = await sharp(thumbnail).metadata();
    preview = thumbnail;
    previewAspect = (meta.width ?? 1) / (meta.height ?? 1);
    if (Math.abs(previewAspect / imageAspect - 1) > 0.03) {
      const trimmed = await sharp(thumbnail).trim({ background: '#000000', threshold: 16 }).toBuffer({ resolveWithObject: true });
      preview = new Uint8Array(trimmed.data);
      previewAspect = trimmed.info.width / trimmed.info.height;
    }
  } catch {
    return null;
  }
  const [imageGrey, previewGrey] = await Promise.all([greySquare(image), greySquare(preview)]);
  let total = 0;
  for (let index = 0; index < imageGrey.length; index++) total += Math.abs(imageGrey[index]! - previewGrey[index]!);
  return { imageAspect, thumbnailAspect: previewAspect, meanDifference: total / imageGrey.length };
}

async function greySquare(picture: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(await sharp(picture).greyscale().resize(side, side, { fit: 'fill', kernel: 'cubic' }).raw().toBuffer());
}
