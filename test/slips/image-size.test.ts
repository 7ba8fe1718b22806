import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { declaredSize, type ImageKind } from '../../src/slips/image-size.js';
import { checkImage, MAX_IMAGE_PIXELS, MAX_IMAGE_SIDE, sniffImage } from '../../src/slips/image.js';
import { bmpBomb, gifBomb, jpegBomb, tiffBomb, webpBomb } from '../security/_bombs.js';

const SLIPS = join(import.meta.dirname, '..', 'fixtures', 'slips');
const read = (...p: string[]) => readFileSync(join(SLIPS, ...p));

/** The real screenshots' sizes as `file` prints them (JPEGs also checked with ImageMagick's identify). */
const SCREENSHOTS: Record<string, [number, number]> = {
  'dk_app_bet_placed_prop_light.png': [1320, 341],
  'dk_app_bet_placed_rr_anytime_td_light.png': [1320, 855],
  'dk_app_mybets_open_spread_dark.png': [1320, 560],
  'fd_app_sgp_alt_yards_dark.png': [1073, 968],
  'fd_app_sgp_anytime_td_alt_dark.png': [1014, 968],
  'fd_app_sgp_props_over_dark.png': [696, 726],
  'hr_app_mybets_prop_settled_green.png': [828, 1499],
  'hr_app_parlay_moneyline_light.png': [1290, 895],
  'hr_app_sgp_props_light.png': [1076, 1500],
  'hr_share_sgp_props_dark.png': [1059, 1500],
  'hr_share_sgpmax_props_light.png': [964, 1500],
  'hr_share_winner_green.png': [1290, 1168],
  'dk_web_mybets_open_alt_total_dark.jpg': [569, 325],
  'dk_web_mybets_open_moneyline_dark.jpg': [577, 344],
  'dk_web_mybets_open_spread_dark_1.jpg': [590, 354],
  'fd_app_mybets_sgp_boost_dark_1.jpg': [1179, 1529],
  'fd_app_mybets_sgp_boost_dark_2.jpg': [1179, 1739],
  'fd_app_mybets_sgp_boost_dark_3.jpg': [1179, 1517],
  'fd_app_mybets_sgp_boost_dark_4.jpg': [1179, 1049],
  'fd_web_mybets_sgp_boost_light.jpg': [811, 498],
};

/** ImageMagick re-encodings of one screenshot (formats/PROVENANCE.md); sizes from `identify`. */
const FORMATS: Array<[file: string, kind: ImageKind, width: number, height: number]> = [
  ['spread_201.gif', 'gif', 201, 121],
  ['spread_202_info.bmp', 'bmp', 202, 121],
  ['spread_203_core.bmp', 'bmp', 203, 122],
  ['spread_204_v5.bmp', 'bmp', 204, 122],
  ['spread_205_vp8.webp', 'webp', 205, 123],
  ['spread_206_vp8l.webp', 'webp', 206, 124],
  ['spread_207_vp8x.webp', 'webp', 207, 124],
  ['spread_208_le.tif', 'tiff', 208, 125],
  ['spread_209_be.tif', 'tiff', 209, 125],
  ['spread_210_progressive.jpg', 'jpeg', 210, 126],
  ['thumb_160.jpg', 'jpeg', 160, 96],
  // Several sizes in one file: the largest page, the largest frame (past the 100 x 60 logical screen).
  ['spread_pages_100_211.tif', 'tiff', 211, 127],
  ['spread_frames_100_212.gif', 'gif', 212, 127],
];

describe('declaredSize on real files', () => {
  it('reads every real screenshot at the size `file` reports', () => {
    const names = readdirSync(join(SLIPS, 'images')).filter((f) => /\.(png|jpg)$/.test(f));
    expect(names.sort()).toEqual(Object.keys(SCREENSHOTS).sort());
    for (const name of names) {
      const bytes = read('images', name);
      const [width, height] = SCREENSHOTS[name]!;
      expect(declaredSize(bytes, sniffImage(bytes)!), name).toEqual({ width, height });
      expect(checkImage(bytes), name).toEqual({ kind: sniffImage(bytes), width, height });
    }
  });

  it('reads GIF, BMP (info, core and v5 headers), WebP (VP8, VP8L, VP8X), TIFF (both byte orders, two pages) and progressive JPEG', () => {
    for (const [file, kind, width, height] of FORMATS) {
      const bytes = read('formats', file);
      expect(sniffImage(bytes), file).toBe(kind);
      expect(declaredSize(bytes, kind), file).toEqual({ width, height });
    }
    expect(read('formats', 'spread_209_be.tif').toString('latin1', 0, 2)).toBe('MM');
    expect(read('formats', 'spread_208_le.tif').toString('latin1', 0, 2)).toBe('II');
  });

  it('a top-down BMP (negative height) is sized by the height magnitude', () => {
    const bytes = Buffer.from(read('formats', 'spread_202_info.bmp'));
    bytes.writeInt32LE(-bytes.readInt32LE(22), 22);
    expect(bytes.readInt32LE(22)).toBe(-121);
    expect(declaredSize(bytes, 'bmp')).toEqual({ width: 202, height: 121 });
  });

  it('an EXIF thumbnail inside APP1 is not taken for the frame', () => {
    const photo = read('images', 'dk_web_mybets_open_spread_dark_1.jpg');
    const thumb = read('formats', 'thumb_160.jpg');
    const body = Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), Buffer.alloc(16), thumb]);
    const app1 = Buffer.concat([Buffer.from([0xff, 0xe1, 0, 0]), body]);
    app1.writeUInt16BE(body.length + 2, 2);
    const withThumb = Buffer.concat([photo.subarray(0, 2), app1, photo.subarray(2)]);
    expect(declaredSize(withThumb, 'jpeg')).toEqual({ width: 590, height: 354 });
    // Stray bytes between two segments are skipped to the next marker, as libjpeg does.
    const stray = Buffer.concat([withThumb.subarray(0, 2 + app1.length), Buffer.from([0x00, 0x12, 0x34]), withThumb.subarray(2 + app1.length)]);
    expect(declaredSize(stray, 'jpeg')).toEqual({ width: 590, height: 354 });
    // The crafted bomb hides a 160 x 120 thumbnail before its real 60000 x 60000 frame.
    expect(declaredSize(jpegBomb(60000, 60000, { thumbnail: true }), 'jpeg')).toEqual({ width: 60000, height: 60000 });
  });
});

describe('declaredSize on crafted headers', () => {
  it('reads the huge sizes the bombs declare, in every format', () => {
    expect(declaredSize(jpegBomb(40000, 30000, { progressive: true }), 'jpeg')).toEqual({ width: 40000, height: 30000 });
    expect(declaredSize(gifBomb([65535, 65535], [10, 10]), 'gif')).toEqual({ width: 65535, height: 65535 });
    expect(declaredSize(gifBomb([10, 10], [60000, 50000]), 'gif')).toEqual({ width: 60000, height: 50000 });
    expect(declaredSize(bmpBomb(30000, -30000), 'bmp')).toEqual({ width: 30000, height: 30000 });
    expect(declaredSize(webpBomb('VP8', 16383, 16383), 'webp')).toEqual({ width: 16383, height: 16383 });
    expect(declaredSize(webpBomb('VP8L', 16384, 16384), 'webp')).toEqual({ width: 16384, height: 16384 });
    expect(declaredSize(webpBomb('VP8X', 1 << 24, 1 << 24), 'webp')).toEqual({ width: 1 << 24, height: 1 << 24 });
    expect(declaredSize(tiffBomb('II', 100000, 100000), 'tiff')).toEqual({ width: 100000, height: 100000 });
    expect(declaredSize(tiffBomb('MM', 100000, 70000), 'tiff')).toEqual({ width: 100000, height: 70000 });
  });

  it('a header it cannot read is null, never a guessed size', () => {
    const png = read('images', 'hr_app_parlay_moneyline_light.png');
    expect(declaredSize(png.subarray(0, 20), 'png')).toBeNull();
    const jpeg = read('images', 'dk_web_mybets_open_spread_dark_1.jpg');
    // Cut before its frame header: no size, even though the file starts like a JPEG.
    const sof = jpeg.indexOf(Buffer.from([0xff, 0xc0]));
    expect(sof).toBeGreaterThan(2);
    expect(declaredSize(jpeg.subarray(0, sof), 'jpeg')).toBeNull();
    const tiff = Buffer.from(read('formats', 'spread_208_le.tif'));
    tiff.writeUInt32LE(4, 4); // the first IFD pointed back into the header
    expect(declaredSize(tiff, 'tiff')).toBeNull();
    const looping = tiffBomb('II', 100, 100);
    looping.writeUInt32LE(8, 10 + 8 * 12); // the next-IFD link points at itself
    expect(declaredSize(looping, 'tiff')).toBeNull();
    const bigTiff = Buffer.from(tiffBomb('II', 100, 100));
    bigTiff.writeUInt16LE(43, 2);
    expect(declaredSize(bigTiff, 'tiff')).toBeNull();
    expect(declaredSize(Buffer.from('RIFF\0\0\0\0WEBPVP8?' + '\0'.repeat(20), 'latin1'), 'webp')).toBeNull();
    expect(declaredSize(bmpBomb(-5, 5), 'bmp')).toBeNull();
  });
});

describe('checkImage against the pixel budget', () => {
  it(`refuses over ${MAX_IMAGE_PIXELS / 1e6} MP or ${MAX_IMAGE_SIDE} px a side with TOO_LARGE naming the budget; at the bounds it passes`, () => {
    const over = [jpegBomb(5001, 5000), jpegBomb(MAX_IMAGE_SIDE + 1, 10), tiffBomb('MM', 10, MAX_IMAGE_SIDE + 1), gifBomb([10, 10], [20000, 20000])];
    for (const bytes of over) {
      expect(() => checkImage(bytes)).toThrow(expect.objectContaining({ code: 'TOO_LARGE', message: expect.stringMatching(/the limit is 25 megapixels and 10000 pixels a side/) }));
    }
    expect(checkImage(jpegBomb(5000, 5000))).toEqual({ kind: 'jpeg', width: 5000, height: 5000 });
    expect(checkImage(jpegBomb(MAX_IMAGE_SIDE, 2500))).toEqual({ kind: 'jpeg', width: MAX_IMAGE_SIDE, height: 2500 });
  });

  it('refuses a format whose size cannot be read as corrupt (400), naming the format', () => {
    expect(() => checkImage(Buffer.from(tiffBomb('II', 100, 0)))).toThrow(/corrupt TIFF image: its header has no readable size/);
    expect(() => checkImage(jpegBomb(100, 0))).toThrow(/corrupt JPEG image/);
    expect(() => checkImage(Buffer.from('RIFF\0\0\0\0WEBPJUNK' + '\0'.repeat(20), 'latin1'))).toThrow(/corrupt WebP image/);
  });
});
