/**
 * A form field's validation message, tied to its input so screen readers read it with the
 * field: spread `invalidProps(id, error)` on the input and put `<FieldError id error />` after it.
 */
export function invalidProps(id: string, error: string | undefined): { 'aria-invalid'?: true; 'aria-describedby'?: string } {
  return error ? { 'aria-invalid': true, 'aria-describedby': id } : {};
}

export function FieldError({ id, error }: { id: string; error: string | undefined }) {
  return error ? (
    <small id={id} class="field-error">
      {error}
    </small>
  ) : null;
}
