/**
 * Colour arithmetic for the brand: parsing `#rgb`/`#rrggbb`, mixing, and WCAG 2.x contrast, so a
 * configured palette is checked before a visitor sees it and a failing pair gets a passing
 * alternative computed rather than guessed.
 */

export interface Rgb {
  r: number;
  g: number;
  b: number;
}

const HEX = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;

/** `#0b5c59` or `#fff` → channels 0–255; null for anything else. */
export function parseHexColour(text: string): Rgb | null {
  const value = text.trim();
  if (!HEX.test(value)) return null;
  const digits =
    value.length === 4
      ? value
          .slice(1)
          .split('')
          .map((digit) => digit + digit)
          .join('')
      : value.slice(1);
  return {
    r: parseInt(digits.slice(0, 2), 16),
    g: parseInt(digits.slice(2, 4), 16),
    b: parseInt(digits.slice(4, 6), 16),
  };
}

export function hexOf(colour: Rgb): string {
  const channel = (value: number) =>
    Math.max(0, Math.min(255, Math.round(value)))
      .toString(16)
      .padStart(2, '0');
  return `#${channel(colour.r)}${channel(colour.g)}${channel(colour.b)}`;
}

/** `amount` 0 gives `from`, 1 gives `to`. */
export function mix(from: Rgb, to: Rgb, amount: number): Rgb {
  return {
    r: from.r + (to.r - from.r) * amount,
    g: from.g + (to.g - from.g) * amount,
    b: from.b + (to.b - from.b) * amount,
  };
}

/** WCAG 2.x relative luminance. */
export function luminance(colour: Rgb): number {
  const linear = (channel: number) => {
    const value = Math.round(channel) / 255;
    return value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * linear(colour.r) + 0.7152 * linear(colour.g) + 0.0722 * linear(colour.b);
}

/** WCAG 2.x contrast ratio, 1 to 21. */
export function contrastRatio(a: Rgb, b: Rgb): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

export const BLACK: Rgb = { r: 0, g: 0, b: 0 };
export const WHITE: Rgb = { r: 255, g: 255, b: 255 };

/**
 * The colour closest to `colour` (fewest steps of darkening or lightening) that reaches `ratio`
 * against `against`: darkening is tried first on a light ground, lightening on a dark one, and the
 * other way when that cannot pass. Black or white, whichever contrasts more, when nothing nearer does.
 */
export function passingAlternative(colour: Rgb, against: Rgb, ratio: number): Rgb {
  if (contrastRatio(colour, against) >= ratio) return colour;
  const darkGround = luminance(against) < 0.18;
  const directions = darkGround ? [WHITE, BLACK] : [BLACK, WHITE];
  for (const target of directions)
    for (let step = 1; step <= 100; step++) {
      // Rounded to what the stylesheet will say, so the ratio checked is the ratio shown.
      const candidate = parseHexColour(hexOf(mix(colour, target, step / 100)))!;
      if (contrastRatio(candidate, against) >= ratio) return candidate;
    }
  return contrastRatio(BLACK, against) >= contrastRatio(WHITE, against) ? BLACK : WHITE;
}

/** Whichever of black and white reads better on `background`. */
export function readableOn(background: Rgb): Rgb {
  return contrastRatio(BLACK, background) >= contrastRatio(WHITE, background) ? BLACK : WHITE;
}
