// POST /forgot-password/submit: the "Forgot password?" form's target (a route handler, so a throttled request gets 429).
import { forgotPasswordRequest } from '@/lib/web/sign-in';

export const POST = (req: Request) => forgotPasswordRequest(req);
