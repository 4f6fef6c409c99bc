// The protobuf messages of Prometheus remote-write 1.0 that Vigil reads (prometheus.WriteRequest
// without its metadata, field 3, which decoding skips as an unknown field): the one declaration
// for the decoder, and for the tests and the bench that encode requests as Prometheus does
// (the real Prometheus in test/ingest-prometheus.test.ts checks it against the wire).
import protobuf from 'protobufjs';

export const WriteRequest = protobuf.parse(`
  syntax = "proto3";
  package prometheus;
  message WriteRequest { repeated TimeSeries timeseries = 1; }
  message TimeSeries { repeated Label labels = 1; repeated Sample samples = 2; }
  message Label { string name = 1; string value = 2; }
  message Sample { double value = 1; int64 timestamp = 2; }
`).root.lookupType('prometheus.WriteRequest');
