/**
 * Bad history query input (a time, an interval, a downsample spec). Thrown by the pure
 * parsers in core/history so that they stay free of HTTP; the route layer maps it to a 400
 * with the message as is (each message starts with the name of the offending parameter).
 */
export class HistoryInputError extends Error {
  override name = 'HistoryInputError';
}
