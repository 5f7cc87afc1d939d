// An image chosen for a slide, made into what the slide holds: the file itself as a data: URL when it
// fits (a GIF keeps its frames), else drawn smaller (at most 1600 x 1200) and encoded as JPEG on a
// white ground, so that a photo from a phone fits the presentation's byte limit.
import { isSlideImageData, SLIDE_IMAGE_TYPES } from '@/lib/shared/deck';

const MAX_SIDE = [1600, 1200] as const;

const asDataUrl = (blob: Blob) =>
  new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(blob);
  });

/** The slide's image of `file`, or the sentence saying why it cannot be one. */
export async function readSlideImage(file: File): Promise<{ src: string } | { error: string }> {
  if (!(SLIDE_IMAGE_TYPES as readonly string[]).includes(file.type)) return { error: `“${file.name}” is not a PNG, JPEG, GIF or WebP image.` };
  const whole = await asDataUrl(file);
  if (isSlideImageData(whole)) return { src: whole };
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file);
  } catch {
    return { error: `“${file.name}” could not be read as an image.` };
  }
  const scale = Math.min(1, MAX_SIDE[0] / bitmap.width, MAX_SIDE[1] / bitmap.height);
  const canvas = document.createElement('canvas');
  canvas.width = Math.max(1, Math.round(bitmap.width * scale));
  canvas.height = Math.max(1, Math.round(bitmap.height * scale));
  const ctx = canvas.getContext('2d');
  if (!ctx) return { error: 'This browser cannot make the image smaller.' };
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
  bitmap.close();
  for (const quality of [0.85, 0.7, 0.5]) {
    const src = canvas.toDataURL('image/jpeg', quality);
    if (isSlideImageData(src)) return { src };
  }
  return { error: `“${file.name}” is too large for a slide even made smaller: choose a smaller image.` };
}
