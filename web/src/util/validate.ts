/** Mainland mobile numbers: 11 digits starting with 1 (spec §5). */
export const PHONE_PATTERN = /^1[3-9]\d{9}$/;

/** URL check: http or https prefix (spec §5). */
export const isUrl = (s: string): boolean => /^https?:\/\//i.test(s);

/** Phone validation messages in the order of spec §5. Returns '' when valid. */
export function phoneError(phone: string): '' | 'required' | 'length' | 'format' {
  if (!phone) return 'required';
  if (phone.length !== 11) return 'length';
  if (!PHONE_PATTERN.test(phone)) return 'format';
  return '';
}
