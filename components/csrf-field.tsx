/** The hidden anti-forgery field every signed-in form carries (checked by lib/web/forms.ts). */
export function CsrfField({ token }: { token: string }) {
  return <input type="hidden" name="csrf" value={token} />;
}
