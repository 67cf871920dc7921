/**
 * Money in the client: amounts arrive as integer minor units; they are shown with
 * Intl.NumberFormat for the player's locale and the market's currency. The number handed to
 * Intl is a decimal *string* built from the integer, so no float ever holds an amount.
 *
 * The currency's sign is the market's (`market.currency_sign`, as the server writes it): the
 * yen is "￥" in Japan where English and German Intl write "¥" (British English "JP¥"), and
 * the rules page the server writes must show the same sign as the bar beside it.
 */

/** "12345" minor units at exponent 2 -> "123.45". */
export function minorToDecimal(minor, exponent) {
  const negative = minor < 0;
  const digits = String(Math.abs(Math.trunc(minor))).padStart(exponent + 1, '0');
  const text = exponent ? `${digits.slice(0, -exponent)}.${digits.slice(-exponent)}` : digits;
  return negative ? `-${text}` : text;
}

/** An amount the player typed that is not one: `key` and `params` name the problem in the message catalogue. */
export class AmountError extends Error {
  constructor(key, params, message) {
    super(message);
    this.key = key;
    this.params = params;
  }
}

/** A decimal string ("10", "10.5", "10,50") -> integer minor units; refuses fractions of a unit. */
export function decimalToMinor(text, exponent) {
  const clean = String(text).trim().replace(/\s/g, '');
  const match = /^(\d+)(?:[.,](\d*))?$/.exec(clean);
  if (!match) throw new AmountError('amount.not_amount', { text }, `"${text}" is not an amount`);
  const fraction = match[2] ?? '';
  if (fraction.length > exponent && /[1-9]/.test(fraction.slice(exponent))) {
    throw new AmountError('amount.too_many_decimals', { text, decimals: exponent }, `"${text}" has more than ${exponent} decimals`);
  }
  const minor = Number(match[1] + fraction.slice(0, exponent).padEnd(exponent, '0'));
  if (!Number.isSafeInteger(minor)) throw new AmountError('amount.too_large', { text }, `"${text}" is too large`);
  return minor;
}

/** The market's locale id ("en_IE") as a BCP 47 tag ("en-IE"). */
export function bcp47(locale) {
  const tag = String(locale || 'en').replace(/_/g, '-');
  try {
    return Intl.getCanonicalLocales(tag)[0];
  } catch {
    return 'en';
  }
}

/** `format` of an Intl.NumberFormat with every currency part written as `sign` (none: as is). */
function withSign(fmt, sign) {
  if (!sign) return (value) => fmt.format(value);
  return (value) => fmt.formatToParts(value).map((part) => (part.type === 'currency' ? sign : part.value)).join('');
}

export class Money {
  constructor({ locale, currency, exponent, sign = null }) {
    this.locale = bcp47(locale);
    this.currency = currency;
    this.exponent = exponent;
    this.sign = sign;
    const options = {
      style: 'currency',
      currency,
      minimumFractionDigits: exponent,
      maximumFractionDigits: exponent,
    };
    this.fmt = new Intl.NumberFormat(this.locale, options);
    this.signedFmt = new Intl.NumberFormat(this.locale, { ...options, signDisplay: 'exceptZero' });
    this.write = withSign(this.fmt, sign);
    this.writeSigned = withSign(this.signedFmt, sign);
    this.numberFmt = new Intl.NumberFormat(this.locale);
  }

  /** The market's currency; `locale` (default: the market's) decides how amounts are written. */
  static fromMarket(market, locale = market.locale) {
    return new Money({
      locale,
      currency: market.currency,
      exponent: market.currency_exponent,
      sign: market.currency_sign ?? null,
    });
  }

  format(minor) {
    return this.write(minorToDecimal(minor, this.exponent));
  }

  signed(minor) {
    return this.writeSigned(minorToDecimal(minor, this.exponent));
  }

  /** A decimal amount string from the server ("0.25") formatted. */
  formatDecimal(text) {
    return this.format(this.toMinor(text));
  }

  toMinor(text) {
    return decimalToMinor(text, this.exponent);
  }

  toDecimal(minor) {
    return minorToDecimal(minor, this.exponent);
  }

  /** Plain numbers (coins, counts) in the player's locale. */
  count(n) {
    return this.numberFmt.format(n);
  }
}
