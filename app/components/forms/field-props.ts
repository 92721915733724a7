/** The parts of a Conform field that an input needs (a structural subset of Conform's FieldMetadata). */
type Field = { id: string; name: string; initialValue?: unknown; errors?: string[] }

/**
 * What every Mantine input takes from a Conform field: its id (labels and error messages point at it), the posted
 * name, the value a server reply carries back (so a page without JavaScript keeps what was typed), and the first
 * error. Spread it, then add the input's own props.
 */
export function fieldProps(field: Field) {
  return {
    id: field.id,
    name: field.name,
    defaultValue: typeof field.initialValue === 'string' ? field.initialValue : undefined,
    error: field.errors?.[0],
  }
}
