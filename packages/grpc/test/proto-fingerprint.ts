import protobuf from 'protobufjs';

/**
 * What a .proto fixes on the wire and in generated code: package, services (methods with their types and
 * streaming), messages (each field's number, type, label, map key and oneof) and enums (values). Comments, options
 * and annotations are left out.
 */
export interface ProtoFingerprint {
  package: string;
  services: Record<string, Record<string, string>>;
  messages: Record<string, Record<string, string>>;
  enums: Record<string, Record<string, number>>;
}

export function fingerprint(source: string): ProtoFingerprint {
  const { root, package: pkg } = protobuf.parse(source, { keepCase: true, alternateCommentMode: false });
  const out: ProtoFingerprint = { package: pkg ?? '', services: {}, messages: {}, enums: {} };
  const scope = root.lookup(pkg ?? '') as protobuf.Namespace;
  const walk = (ns: protobuf.NamespaceBase, prefix: string) => {
    for (const nested of ns.nestedArray) {
      const name = `${prefix}${nested.name}`;
      if (nested instanceof protobuf.Service) {
        out.services[name] = Object.fromEntries(
          nested.methodsArray.map((m) => [
            m.name,
            `${m.requestStream ? 'stream ' : ''}${m.requestType} -> ${m.responseStream ? 'stream ' : ''}${m.responseType}`,
          ]),
        );
      } else if (nested instanceof protobuf.Type) {
        out.messages[name] = Object.fromEntries(
          nested.fieldsArray.map((f) => {
            const map = f instanceof protobuf.MapField ? `map<${f.keyType}, ${f.type}>` : f.type;
            const label =
              f.repeated && !(f instanceof protobuf.MapField)
                ? 'repeated '
                : f.options?.proto3_optional
                  ? 'optional '
                  : '';
            const oneof = f.partOf && !f.partOf.name.startsWith('_') ? ` oneof ${f.partOf.name}` : '';
            return [f.name, `${f.id} ${label}${map}${oneof}`];
          }),
        );
        walk(nested, `${name}.`);
      } else if (nested instanceof protobuf.Enum) {
        out.enums[name] = { ...nested.values };
      }
    }
  };
  walk(scope, '');
  return out;
}
