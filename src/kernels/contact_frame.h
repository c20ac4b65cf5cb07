/* -*- c++ -*- ----------------------------------------------------------
   dem-contact: the contact frame carried by a unit quaternion (Kuhn, Jäger
   implementation paper, Sec. 3.2).

   Each contact keeps its history in its own tangent frame: local x, y in the
   tangent plane, local z along the contact normal. The frame is a unit
   quaternion q (4 doubles per contact) that rotates local vectors into global
   ones, v_global = q v_local q*.

   Per step, before the contact law is called:
     q = update(q, n_new, twirl)
   rotates the frame by the tilt -- the smallest rotation taking the frame's
   current normal (its local z) to n_new -- and then about n_new by the twirl
   angle, e.g. 1/2 (dtheta_p + dtheta_q) . n_new, and renormalises. A pair that
   rotates rigidly then sees no change in its local frame: the history never has
   to be rotated point by point. (For a rigid rotation by angle theta per step
   about an axis at angle beta to the normal, tilt + twirl differs from the true
   rotation by a twist about the normal of 2 atan(tan(theta/2) cos beta) -
   theta cos beta = theta^3 cos beta sin^2 beta / 12 + O(theta^5) per step.)

   Vectors: to_local(q, v) gives the tangent-plane components and the normal
   component of a global vector; to_global(q, tx, ty) gives the global vector of
   a tangent-plane vector. Quaternion algebra only: no acos, no matrices.
------------------------------------------------------------------------- */

#ifndef DEMC_CONTACT_FRAME_H
#define DEMC_CONTACT_FRAME_H

#include "kernel_common.h"

namespace demc {
namespace frame {

  struct Quat {
    double w, x, y, z;    // w + x i + y j + z k, unit for a frame
  };

  // Components of a global vector in the contact frame.
  struct Local {
    double x, y;    // tangent plane
    double n;       // along the normal (local z)
  };

  DEMC_FN_FLAT Quat mul(const Quat &a, const Quat &b)
  {
    return {a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z,
            a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
            a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
            a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w};
  }

  DEMC_FN Quat conjugate(const Quat &q)
  {
    return {q.w, -q.x, -q.y, -q.z};
  }

  DEMC_FN Quat normalized(const Quat &q)
  {
    const double s = 1.0 / math::sqrt(q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z);
    return {s * q.w, s * q.x, s * q.y, s * q.z};
  }

  // q v q* for a unit q: v + 2w (u x v) + 2 u x (u x v), u = vector part.
  DEMC_FN Vec3 rotate(const Quat &q, const Vec3 &v)
  {
    const Vec3 u = {q.x, q.y, q.z};
    const Vec3 t = 2.0 * cross(u, v);
    return v + q.w * t + cross(u, t);
  }

  DEMC_FN Vec3 rotate_inverse(const Quat &q, const Vec3 &v)
  {
    return rotate(conjugate(q), v);
  }

  /* The smallest rotation taking unit a to unit b, from the half-way vector
     h = (a + b)/|a + b|: q = (a.h, a x h) is unit by construction and needs no
     angle. Antiparallel (|a + b| < 1e-12): the half turn about an axis normal to
     a (no unique smallest rotation exists). */
  DEMC_FN Quat rotation_between(const Vec3 &a, const Vec3 &b)
  {
    const Vec3 s = a + b;
    const double len2 = dot(s, s);
    if (len2 > 1e-24) {
      const Vec3 h = (1.0 / math::sqrt(len2)) * s;
      const Vec3 w = cross(a, h);
      return {dot(a, h), w.x, w.y, w.z};
    }
    const Vec3 p = math::fabs(a.x) < 0.9 ? cross(a, Vec3{1.0, 0.0, 0.0})
                                         : cross(a, Vec3{0.0, 1.0, 0.0});
    const double lp = norm(p);
    return {0.0, p.x / lp, p.y / lp, p.z / lp};
  }

  // Rotation by angle phi about the unit axis k.
  DEMC_FN Quat rotation_about(const Vec3 &k, double phi)
  {
    double s, c;
    sin_cos(0.5 * phi, s, c);    // per-step twirls are tiny: the series, not the library
    return {c, s * k.x, s * k.y, s * k.z};
  }

  // A frame kept in a contact's history record: four consecutive values w, x, y, z.
  DEMC_FN Quat load(const double *wxyz)
  {
    return {wxyz[0], wxyz[1], wxyz[2], wxyz[3]};
  }
  DEMC_FN void store(double *wxyz, const Quat &q)
  {
    wxyz[0] = q.w;
    wxyz[1] = q.x;
    wxyz[2] = q.y;
    wxyz[3] = q.z;
  }

  // The frame's normal: its local z in global coordinates.
  DEMC_FN Vec3 normal(const Quat &q)
  {
    return {2.0 * (q.x * q.z + q.w * q.y), 2.0 * (q.y * q.z - q.w * q.x),
            1.0 - 2.0 * (q.x * q.x + q.y * q.y)};
  }

  // A frame whose normal is the unit vector n (tangent axes: the smallest rotation of x, y).
  DEMC_FN Quat init_frame(const Vec3 &n)
  {
    return rotation_between(Vec3{0.0, 0.0, 1.0}, n);
  }

  // update() for a tilt beyond a right angle (a: the frame's normal), as two rotations
  DEMC_FN Quat update_by_large_tilt(const Quat &q, const Vec3 &a, const Vec3 &n_new, double twirl)
  {
    return normalized(mul(rotation_about(n_new, twirl), mul(rotation_between(a, n_new), q)));
  }

  /* Tilt to the unit normal n_new, then twirl by `twirl` radians about it; renormalised.
     The result is normalised anyway, so the tilt need not be: for unit a (the frame's normal)
     and b = n_new, (1 + a.b, a x b) is the smallest rotation from a to b scaled by
     sqrt(2 (1 + a.b)) -- no square root or division of its own. Twirl after tilt, with
     (cos h, sin h b) for h = twirl / 2, is then the single quaternion
       (cos h (1 + a.b), cos h (a x b) + sin h (a + b))
     (b x (a x b) = a - (a.b) b), one product with q instead of two. Beyond a right angle
     1 + a.b would lose digits to cancellation: rotation_between() takes those tilts.
     DEMC_FN_FLAT, with that rare branch apart: gran/jaeger called it out of line. */
  DEMC_FN_FLAT Quat update(const Quat &q, const Vec3 &n_new, double twirl)
  {
    const Vec3 a = normal(q);
    const double c = dot(a, n_new);
    const Vec3 axis = cross(a, n_new);
    if (!(c > 0.0)) return update_by_large_tilt(q, a, n_new, twirl);
    double sh, ch;
    sin_cos(0.5 * twirl, sh, ch);
    const Vec3 v = ch * axis + sh * (a + n_new);
    return normalized(mul(Quat{ch * (1.0 + c), v.x, v.y, v.z}, q));
  }

  DEMC_FN Local to_local(const Quat &q, const Vec3 &v)
  {
    const Vec3 l = rotate_inverse(q, v);
    return {l.x, l.y, l.z};
  }

  DEMC_FN Vec3 to_global(const Quat &q, double tx, double ty)
  {
    return rotate(q, Vec3{tx, ty, 0.0});
  }

  DEMC_FN Vec3 to_global(const Quat &q, const Local &l)
  {
    return rotate(q, Vec3{l.x, l.y, l.n});
  }

}    // namespace frame
}    // namespace demc

#endif
