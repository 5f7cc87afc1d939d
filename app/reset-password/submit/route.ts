// POST /reset-password/submit: the new password from a mailed link's form.
import { resetPasswordRequest } from '@/lib/web/sign-in';

export const POST = (req: Request) => resetPasswordRequest(req);
