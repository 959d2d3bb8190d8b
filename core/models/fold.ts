/**
 * Exact rewrites of an ONNX graph that onnxruntime does not make itself: scalar scales and shifts
 * around convolutions are folded into the convolution's weights, and hard-swish written as
 * Add/Clip/Mul/Div becomes HardSigmoid·x, which onnxruntime fuses into the convolution.
 * PP-OCRv4's recogniser has 28 such blocks; every rewrite is algebraically exact.
 *
 * Where onnxruntime runs convolutions in its blocked channel layout (x86-64), two more rewrites keep
 * the tensors in that layout, since an operator it lacks there costs a layout change before and
 * after: a shift left before a padded convolution becomes a BatchNormalization, and PRelu becomes
 * two depthwise 1x1 convolutions (fr_feature: 11.0 -> 5.4 ms a face).
 *
 * The model is edited at the protobuf wire level: every field this file does not touch is copied
 * byte for byte, so nothing the schema has and this file does not know is lost.
 */

interface Field {
  no: number;
  wire: number;
  /** The whole field, tag included. */
  raw: Uint8Array;
  /** Payload of a length-delimited field, or the value of a varint / fixed32 field. */
  bytes: Uint8Array;
  varint: number;
}

function readVarint(buf: Uint8Array, pos: number): [number, number] {
  let value = 0;
  let scale = 1;
  for (;;) {
    if (pos >= buf.length) throw new Error('truncated varint');
    const b = buf[pos++] ?? 0;
    value += (b & 0x7f) * scale;
    if (b < 0x80) return [value, pos];
    scale *= 128;
  }
}

function fields(buf: Uint8Array): Field[] {
  const out: Field[] = [];
  let pos = 0;
  while (pos < buf.length) {
    const start = pos;
    const [tag, p] = readVarint(buf, pos);
    pos = p;
    const no = Math.floor(tag / 8);
    const wire = tag % 8;
    let bytes = buf.subarray(pos, pos);
    let varint = 0;
    if (wire === 0) [varint, pos] = readVarint(buf, pos);
    else if (wire === 1) pos += 8;
    else if (wire === 5) {
      bytes = buf.subarray(pos, pos + 4);
      pos += 4;
    } else if (wire === 2) {
      const [len, q] = readVarint(buf, pos);
      bytes = buf.subarray(q, q + len);
      pos = q + len;
    } else throw new Error(`unsupported wire type ${wire}`);
    if (pos > buf.length) throw new Error('truncated field');
    out.push({ no, wire, raw: buf.subarray(start, pos), bytes, varint });
  }
  return out;
}

function varint(value: number): number[] {
  const out: number[] = [];
  while (value >= 128) {
    out.push((value % 128) | 0x80);
    value = Math.floor(value / 128);
  }
  out.push(value);
  return out;
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

function lengthField(no: number, payload: Uint8Array): Uint8Array {
  return concat([Uint8Array.from([...varint(no * 8 + 2), ...varint(payload.length)]), payload]);
}

const text = (s: string): Uint8Array => new TextEncoder().encode(s);
const str = (b: Uint8Array): string => new TextDecoder().decode(b);

// ONNX field numbers (onnx.proto).
const MODEL_GRAPH = 7;
const MODEL_OPSET_IMPORT = 8;
const GRAPH_NODE = 1;
const GRAPH_INITIALIZER = 5;
const GRAPH_OUTPUT = 12;
const NODE_INPUT = 1;
const NODE_OUTPUT = 2;
const NODE_OP_TYPE = 4;
const NODE_ATTRIBUTE = 5;
const NODE_DOMAIN = 7;
const ATTR_NAME = 1;
const ATTR_F = 2;
const ATTR_I = 3;
const ATTR_T = 5;
const ATTR_INTS = 8;
const ATTR_G = 6;
const ATTR_GRAPHS = 11;
const ATTR_TYPE = 20;
const TENSOR_DIMS = 1;
const TENSOR_DATA_TYPE = 2;
const TENSOR_FLOAT_DATA = 4;
const TENSOR_NAME = 8;
const TENSOR_RAW_DATA = 9;
const FLOAT = 1;
const ATTR_INT = 2;

interface Attribute {
  name: string;
  raw: Uint8Array;
  f?: number;
  i?: number;
  ints?: number[];
  tensor?: Uint8Array;
  /** Holds a subgraph (If, Loop, Scan), whose reads this file does not follow. */
  subgraph?: boolean;
}

interface Node {
  inputs: string[];
  outputs: string[];
  opType: string;
  domain: string;
  attributes: Attribute[];
  /** Fields other than inputs, outputs, op type and attributes (name, doc string, domain). */
  rest: Uint8Array[];
  /** The node's original bytes while it is unchanged. */
  original?: Uint8Array;
}

interface FloatTensor {
  dims: number[];
  values: Float32Array;
}

function float32(bytes: Uint8Array): number {
  return new DataView(bytes.buffer, bytes.byteOffset, 4).getFloat32(0, true);
}

function packedInts(f: Field): number[] {
  if (f.wire === 0) return [f.varint];
  const out: number[] = [];
  let pos = 0;
  while (pos < f.bytes.length) {
    const [v, p] = readVarint(f.bytes, pos);
    out.push(v);
    pos = p;
  }
  return out;
}

function decodeAttribute(raw: Uint8Array, payload: Uint8Array): Attribute {
  const attr: Attribute = { name: '', raw };
  for (const f of fields(payload)) {
    if (f.no === ATTR_NAME) attr.name = str(f.bytes);
    else if (f.no === ATTR_F && f.wire === 5) attr.f = float32(f.bytes);
    else if (f.no === ATTR_T) attr.tensor = f.bytes;
    else if (f.no === ATTR_I && f.wire === 0) attr.i = f.varint;
    else if (f.no === ATTR_INTS) (attr.ints ??= []).push(...packedInts(f));
    else if (f.no === ATTR_G || f.no === ATTR_GRAPHS) attr.subgraph = true;
    else if (f.no === ATTR_TYPE && f.varint === FLOAT) attr.f ??= 0; // a zero float may be left out
  }
  return attr;
}

function decodeNode(raw: Uint8Array, payload: Uint8Array): Node {
  const node: Node = {
    inputs: [],
    outputs: [],
    opType: '',
    domain: '',
    attributes: [],
    rest: [],
    original: raw,
  };
  for (const f of fields(payload)) {
    if (f.no === NODE_INPUT) node.inputs.push(str(f.bytes));
    else if (f.no === NODE_OUTPUT) node.outputs.push(str(f.bytes));
    else if (f.no === NODE_OP_TYPE) node.opType = str(f.bytes);
    else if (f.no === NODE_ATTRIBUTE) node.attributes.push(decodeAttribute(f.raw, f.bytes));
    else {
      if (f.no === NODE_DOMAIN) node.domain = str(f.bytes);
      node.rest.push(f.raw);
    }
  }
  return node;
}

function encodeNode(node: Node): Uint8Array {
  if (node.original) return node.original;
  const payload = concat([
    ...node.inputs.map((i) => lengthField(NODE_INPUT, text(i))),
    ...node.outputs.map((o) => lengthField(NODE_OUTPUT, text(o))),
    lengthField(NODE_OP_TYPE, text(node.opType)),
    ...node.attributes.map((a) => a.raw),
    ...node.rest,
  ]);
  return lengthField(GRAPH_NODE, payload);
}

/** A float tensor's name, dims and values; undefined for any other element type. */
function decodeFloatTensor(payload: Uint8Array): (FloatTensor & { name: string }) | undefined {
  let dims: number[] = [];
  let type = 0;
  let name = '';
  let values: Float32Array | undefined;
  const listed: number[] = [];
  for (const f of fields(payload)) {
    if (f.no === TENSOR_DIMS) dims = dims.concat(packedInts(f));
    else if (f.no === TENSOR_DATA_TYPE) type = f.varint;
    else if (f.no === TENSOR_NAME) name = str(f.bytes);
    else if (f.no === TENSOR_RAW_DATA)
      values = new Float32Array(new Uint8Array(f.bytes).buffer, 0, f.bytes.length >> 2); // a copy: aligned, and not a view into a Buffer pool
    else if (f.no === TENSOR_FLOAT_DATA) {
      if (f.wire === 5) listed.push(float32(f.bytes));
      else for (let i = 0; i + 4 <= f.bytes.length; i += 4) listed.push(float32(f.bytes.subarray(i)));
    }
  }
  if (type !== FLOAT) return undefined;
  values ??= Float32Array.from(listed);
  if (values.length !== dims.reduce((n, d) => n * d, 1)) return undefined;
  return { name, dims, values };
}

function encodeFloatTensor(name: string, dims: number[], values: Float32Array): Uint8Array {
  const dimBytes = Uint8Array.from(dims.flatMap(varint));
  const data = new Uint8Array(values.length * 4);
  const view = new DataView(data.buffer);
  for (let i = 0; i < values.length; i++) view.setFloat32(i * 4, values[i] ?? 0, true);
  return concat([
    lengthField(TENSOR_DIMS, dimBytes),
    Uint8Array.from([TENSOR_DATA_TYPE * 8, FLOAT]),
    lengthField(TENSOR_NAME, text(name)),
    lengthField(TENSOR_RAW_DATA, data),
  ]);
}

function floatAttribute(name: string, value: number): Attribute {
  const f = new Uint8Array(4);
  new DataView(f.buffer).setFloat32(0, value, true);
  const payload = concat([
    lengthField(ATTR_NAME, text(name)),
    Uint8Array.from([ATTR_F * 8 + 5]),
    f,
    Uint8Array.from([...varint(ATTR_TYPE * 8), FLOAT]),
  ]);
  return { name, raw: lengthField(NODE_ATTRIBUTE, payload), f: value };
}

function intAttribute(name: string, value: number): Attribute {
  const payload = concat([
    lengthField(ATTR_NAME, text(name)),
    Uint8Array.from([...varint(ATTR_I * 8), ...varint(value)]),
    Uint8Array.from([...varint(ATTR_TYPE * 8), ATTR_INT]),
  ]);
  return { name, raw: lengthField(NODE_ATTRIBUTE, payload), i: value };
}

function newNode(opType: string, inputs: string[], output: string, attributes: Attribute[] = []): Node {
  return { inputs, outputs: [output], opType, domain: '', attributes, rest: [] };
}

class Graph {
  nodes: Node[] = [];
  /** Float constants by value name: initializers and Constant nodes' values. */
  readonly constants = new Map<string, FloatTensor>();
  readonly graphOutputs = new Set<string>();
  /** Initializers this rewrite made, written only if still read. */
  private readonly added = new Map<string, Uint8Array>();
  private consumersOf = new Map<string, Node[]>();
  private used = new Set<string>();

  constructor(private readonly graphFields: Field[]) {
    for (const f of graphFields) {
      if (f.no === GRAPH_NODE) this.nodes.push(decodeNode(f.raw, f.bytes));
      else if (f.no === GRAPH_INITIALIZER) {
        const t = decodeFloatTensor(f.bytes);
        if (t) this.constants.set(t.name, t);
      } else if (f.no === GRAPH_OUTPUT) {
        const name = fields(f.bytes).find((v) => v.no === 1);
        if (name) this.graphOutputs.add(str(name.bytes));
      }
    }
    for (const n of this.nodes) {
      const value =
        n.opType === 'Constant' && n.domain === '' ? n.attributes.find((a) => a.name === 'value') : undefined;
      const t = value?.tensor ? decodeFloatTensor(value.tensor) : undefined;
      if (t && n.outputs[0]) this.constants.set(n.outputs[0], t);
      for (const o of n.outputs) this.used.add(o);
    }
    for (const f of graphFields) if (f.no === GRAPH_INITIALIZER) this.used.add(decodeName(f.bytes));
    this.index();
  }

  index(): void {
    this.consumersOf = new Map();
    for (const n of this.nodes)
      for (const i of n.inputs) {
        const list = this.consumersOf.get(i) ?? [];
        list.push(n);
        this.consumersOf.set(i, list);
      }
  }

  /** The one node reading a value that is not also a graph output. */
  soleConsumer(value: string): Node | undefined {
    const list = this.consumersOf.get(value);
    return list?.length === 1 && !this.graphOutputs.has(value) ? list[0] : undefined;
  }

  scalar(value: string): number | undefined {
    const t = this.constants.get(value);
    return t?.values.length === 1 ? t.values[0] : undefined;
  }

  /** Add a float initializer under a fresh name. */
  addConstant(base: string, dims: number[], values: Float32Array): string {
    let name = `${base}/folded`;
    for (let k = 1; this.used.has(name); k++) name = `${base}/folded${k}`;
    this.used.add(name);
    this.constants.set(name, { dims, values });
    this.added.set(name, lengthField(GRAPH_INITIALIZER, encodeFloatTensor(name, dims, values)));
    return name;
  }

  remove(dead: Set<Node>): void {
    this.nodes = this.nodes.filter((n) => !dead.has(n));
    this.index();
  }

  encode(): Uint8Array {
    // Constant nodes whose value nothing reads any more are dropped.
    const read = new Set([...this.nodes.flatMap((n) => n.inputs), ...this.graphOutputs]);
    const kept = this.nodes.filter((n) => n.opType !== 'Constant' || n.outputs.some((o) => read.has(o)));
    const parts: Uint8Array[] = [];
    let nodesWritten = false;
    for (const f of this.graphFields) {
      if (f.no !== GRAPH_NODE) parts.push(f.raw);
      else if (!nodesWritten) {
        parts.push(...kept.map(encodeNode));
        for (const [name, field] of this.added) if (read.has(name)) parts.push(field);
        nodesWritten = true;
      }
    }
    return concat(parts);
  }
}

function decodeName(tensor: Uint8Array): string {
  const f = fields(tensor).find((v) => v.no === TENSOR_NAME);
  return f ? str(f.bytes) : '';
}

/** The i-th input or output name ('' when absent, as ONNX writes an optional input left out). */
const inp = (node: Node, i: number): string => node.inputs[i] ?? '';
const out = (node: Node): string => node.outputs[0] ?? '';
const attribute = (node: Node, name: string): Attribute | undefined =>
  node.attributes.find((a) => a.name === name);

function other(node: Node, value: string): string {
  return inp(node, 0) === value ? inp(node, 1) : inp(node, 0);
}

function touch(node: Node): void {
  delete node.original;
}

/** The convolution's weights and bias (zeros when it has none), if they are float constants. */
function convParams(g: Graph, conv: Node): { w: FloatTensor; bias: Float32Array } | undefined {
  const w = g.constants.get(inp(conv, 1));
  const filters = w?.dims[0] ?? 0;
  if (!w || w.dims.length < 3 || filters === 0) return undefined;
  const bias = inp(conv, 2) ? g.constants.get(inp(conv, 2))?.values : new Float32Array(filters);
  if (!bias || bias.length !== filters) return undefined;
  return { w, bias };
}

function setConvParams(
  g: Graph,
  conv: Node,
  w: FloatTensor,
  weights: Float32Array,
  bias: Float32Array,
): void {
  conv.inputs[1] = g.addConstant(inp(conv, 1), w.dims, weights);
  conv.inputs[2] = g.addConstant(inp(conv, 2) || `${inp(conv, 1)}_bias`, [bias.length], bias);
  touch(conv);
}

const isConv = (n: Node | undefined): n is Node =>
  n?.opType === 'Conv' && n.domain === '' && n.inputs.length >= 2;
const isBinary = (n: Node | undefined, op: string): n is Node =>
  n?.opType === op && n.domain === '' && n.inputs.length === 2;

/** y = s·conv(x) + b, with s and b scalars, becomes one convolution. */
function foldAfterConv(g: Graph): number {
  const dead = new Set<Node>();
  let count = 0;
  for (const conv of g.nodes) {
    const params = isConv(conv) ? convParams(g, conv) : undefined;
    if (!params) continue;
    let weights = params.w.values;
    let bias = params.bias;
    let output = out(conv);
    for (;;) {
      const next = g.soleConsumer(output);
      if (!next || !(isBinary(next, 'Mul') || isBinary(next, 'Add'))) break;
      const k = g.scalar(other(next, output));
      if (k === undefined) break;
      if (next.opType === 'Mul') {
        weights = weights.map((v) => v * k);
        bias = bias.map((v) => v * k);
      } else bias = bias.map((v) => v + k);
      output = out(next);
      dead.add(next);
      count++;
    }
    if (output === out(conv)) continue;
    setConvParams(g, conv, params.w, weights, bias);
    conv.outputs[0] = output;
  }
  g.remove(dead);
  return count;
}

/** x·clip(x + 3, 0, 6)/6 becomes x·HardSigmoid(x) with alpha 1/6 and beta 1/2: the same function. */
function hardSwish(g: Graph): number {
  const dead = new Set<Node>();
  let count = 0;
  for (const add of g.nodes) {
    if (!isBinary(add, 'Add') || dead.has(add)) continue;
    const x = add.inputs.find((i) => g.scalar(i) === undefined);
    if (x === undefined || g.scalar(other(add, x)) !== 3) continue;
    const clip = g.soleConsumer(out(add));
    if (clip?.opType !== 'Clip' || clip.domain !== '' || inp(clip, 0) !== out(add)) continue;
    const min = inp(clip, 1) ? g.scalar(inp(clip, 1)) : attribute(clip, 'min')?.f;
    const max = inp(clip, 2) ? g.scalar(inp(clip, 2)) : attribute(clip, 'max')?.f;
    if (min !== 0 || max !== 6) continue;
    const mul = g.soleConsumer(out(clip));
    if (!isBinary(mul, 'Mul') || other(mul, out(clip)) !== x) continue;
    const div = g.soleConsumer(out(mul));
    if (!isBinary(div, 'Div') || inp(div, 0) !== out(mul) || g.scalar(inp(div, 1)) !== 6) continue;
    add.opType = 'HardSigmoid';
    add.inputs = [x];
    add.attributes = [floatAttribute('alpha', 1 / 6), floatAttribute('beta', 0.5)];
    touch(add);
    mul.inputs = [x, out(add)];
    mul.outputs = [out(div)];
    touch(mul);
    dead.add(clip).add(div);
    count++;
  }
  g.remove(dead);
  return count;
}

/**
 * conv(s·x + b), with s and b scalars: s goes into the weights. Without padding, b goes into the
 * bias (b times each filter's sum); with zero padding it stays as an Add of b/s before the
 * convolution, since the padded border must still read zero.
 */
function foldBeforeConv(g: Graph, blocked: boolean): number {
  const dead = new Set<Node>();
  let count = 0;
  for (const mul of g.nodes) {
    if (!isBinary(mul, 'Mul') || dead.has(mul)) continue;
    const x = mul.inputs.find((i) => g.scalar(i) === undefined);
    const s = x === undefined ? undefined : g.scalar(other(mul, x));
    if (x === undefined || s === undefined || s === 0) continue;
    const add = g.soleConsumer(out(mul));
    const b = isBinary(add, 'Add') ? g.scalar(other(add, out(mul))) : undefined;
    if (!add || b === undefined) continue;
    const conv = g.soleConsumer(out(add));
    if (!isConv(conv) || inp(conv, 0) !== out(add)) continue;
    const params = convParams(g, conv);
    if (!params) continue;
    const { w, bias } = params;
    const pads = attribute(conv, 'pads')?.ints ?? [];
    const autoPad = attribute(conv, 'auto_pad') !== undefined;
    const weights = w.values.map((v) => v * s);
    if (pads.every((p) => p === 0) && !autoPad) {
      const per = w.values.length / bias.length;
      const shifted = bias.map((v, o) => {
        let sum = 0;
        for (let k = o * per; k < (o + 1) * per; k++) sum += w.values[k] ?? 0;
        return v + b * sum;
      });
      setConvParams(g, conv, w, weights, shifted);
      conv.inputs[0] = x;
      dead.add(mul).add(add);
    } else {
      setConvParams(g, conv, w, weights, bias);
      const shift = other(add, out(mul));
      const channels = w.dims.length === 4 ? (w.dims[1] ?? 0) * (attribute(conv, 'group')?.i ?? 1) : 0;
      if (blocked && channels > 0) {
        // x·1 + b/s per channel: the same sum, as an operator the blocked layout has.
        add.opType = 'BatchNormalization';
        add.inputs = [
          x,
          g.addConstant(`${shift}/scale`, [channels], new Float32Array(channels).fill(1)),
          g.addConstant(`${shift}/shift`, [channels], new Float32Array(channels).fill(b / s)),
          g.addConstant(`${shift}/mean`, [channels], new Float32Array(channels)),
          g.addConstant(`${shift}/var`, [channels], new Float32Array(channels).fill(1)),
        ];
        add.attributes = [floatAttribute('epsilon', 0)];
      } else add.inputs = [x, g.addConstant(shift, [], Float32Array.of(b / s))];
      touch(add);
      dead.add(mul);
    }
    count++;
  }
  g.remove(dead);
  return count;
}

/**
 * PRelu(x) = a·x + Relu((1 - a)·x) per channel when its slope a is at most 1 (for a > 1 the function is concave
 * and the Relu term would need a negative weight): a depthwise 1x1 convolution, a second one with the Relu fused,
 * and their sum, which onnxruntime accumulates into the first.
 */
function preluAsConvolutions(g: Graph): number {
  const producers = new Map(g.nodes.flatMap((n) => n.outputs.map((o) => [o, n] as const)));
  const replaced = new Map<Node, Node[]>();
  for (const node of g.nodes) {
    if (node.opType !== 'PRelu' || node.domain !== '') continue;
    const slope = g.constants.get(inp(node, 1));
    const producer = producers.get(inp(node, 0));
    // One slope per channel of a 2-D convolution's output: the NCHW input the 1x1 convolutions need.
    const perChannel = slope?.dims.length === 3 && slope.dims[1] === 1 && slope.dims[2] === 1;
    const fromConv = isConv(producer) && g.constants.get(inp(producer, 1))?.dims.length === 4;
    if (!slope || !perChannel || !fromConv || slope.values.some((v) => !(v <= 1))) continue;
    const [x, y] = [inp(node, 0), out(node)];
    const depthwise = (name: string, values: Float32Array): Node =>
      newNode(
        'Conv',
        [x, g.addConstant(`${inp(node, 1)}/${name}`, [values.length, 1, 1, 1], values)],
        `${y}/${name}`,
        [intAttribute('group', values.length)],
      );
    const kept = slope.values.map((v) => 1 - v);
    replaced.set(node, [
      depthwise('linear', slope.values),
      depthwise('kept', kept),
      newNode('Relu', [`${y}/kept`], `${y}/rectified`),
      newNode('Add', [`${y}/linear`, `${y}/rectified`], y),
    ]);
  }
  if (replaced.size === 0) return 0;
  g.nodes = g.nodes.flatMap((n) => replaced.get(n) ?? [n]);
  g.index();
  return replaced.size;
}

/** Rewrites for onnxruntime's blocked channel layout: on by default where it has one (x86-64). */
export interface FoldOptions {
  blockedLayout?: boolean;
}

/**
 * Rewrite a serialized ONNX model; returns the same bytes when nothing applies. `rewrites` counts
 * the folds made.
 */
export function foldConvolutionAffines(
  model: Uint8Array,
  options: FoldOptions = {},
): { bytes: Uint8Array; rewrites: number } {
  const blocked = options.blockedLayout ?? process.arch === 'x64';
  const top = fields(model);
  const graphField = top.find((f) => f.no === MODEL_GRAPH);
  if (!graphField) return { bytes: model, rewrites: 0 };
  const g = new Graph(fields(graphField.bytes));
  if (g.nodes.some((n) => n.attributes.some((a) => a.subgraph))) return { bytes: model, rewrites: 0 };
  const opset = defaultOpset(top);
  const rewrites =
    foldAfterConv(g) +
    (opset >= 6 ? hardSwish(g) : 0) +
    // BatchNormalization's inputs and attributes as read here date from opset 7.
    foldBeforeConv(g, blocked && opset >= 7) +
    (blocked ? preluAsConvolutions(g) : 0);
  if (rewrites === 0) return { bytes: model, rewrites };
  const graph = lengthField(MODEL_GRAPH, g.encode());
  return { bytes: concat(top.map((f) => (f === graphField ? graph : f.raw))), rewrites };
}

/** The model's version of the default (ai.onnx) operator set; HardSigmoid needs 6. */
function defaultOpset(top: Field[]): number {
  for (const f of top) {
    if (f.no !== MODEL_OPSET_IMPORT) continue;
    const parts = fields(f.bytes);
    const domain = parts.find((p) => p.no === 1);
    if (!domain || domain.bytes.length === 0) return parts.find((p) => p.no === 2)?.varint ?? 0;
  }
  return 0;
}
