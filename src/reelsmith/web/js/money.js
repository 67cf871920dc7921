/**
 * Money in the client: amounts arrive as integer minor units; they are shown with
 * Intl.NumberFormat for the market's locale and currency. The number handed to Intl is a
 * decimal *string* built from the integer, so no float ever holds an amount.
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

export class Money {
  constructor({ locale, currency, exponent }) {
    this.locale = bcp47(locale);
    this.currency = currency;
    this.exponent = exponent;
    const options = {
      style: 'currency',
      currency,
      minimumFractionDigits: exponent,
      maximumFractionDigits: exponent,
    };
    this.fmt = new Intl.NumberFormat(this.locale, options);
    this.signedFmt = new Intl.NumberFormat(this.locale, { ...options, signDisplay: 'exceptZero' });
    this.numberFmt = new Intl.NumberFormat(this.locale);
  }

  /** The market's currency; `locale` (default: the market's) decides how amounts are written. */
  static fromMarket(market, locale = market.locale) {
    return new Money({
      locale,
      currency: market.currency,
      exponent: market.currency_exponent,
    });
  }

  format(minor) {
    return this.fmt.format(minorToDecimal(minor, this.exponent));
  }

  signed(minor) {
    return this.signedFmt.format(minorToDecimal(minor, this.exponent));
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
