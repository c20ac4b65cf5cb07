/* -*- c++ -*- ----------------------------------------------------------
   dem-contact: the papers each contact law implements, registered with
   LAMMPS's citation reminder (CiteMe) by the constructors of the styles that
   use the law: the pair style, its Kokkos variant (through the base class)
   and the wall fix. CiteMe lists a text once however many styles add it.
------------------------------------------------------------------------- */

#ifndef DEMC_CITATIONS_H
#define DEMC_CITATIONS_H

namespace demc {

// pair_style gran/kuhn(/kk), fix wall/gran/kuhn
inline constexpr char cite_kuhn_suzuki_daouadji[] =
    "pair_style gran/kuhn, fix wall/gran/kuhn: Kuhn, Suzuki and Daouadji, linear-frictional "
    "contact model for 3D DEM (2020)\n\n"
    "@Misc{Kuhn2020linear,\n"
    " author = {Kuhn, Matthew R. and Suzuki, Kiichi and Daouadji, Ali},\n"
    " title = {Linear-frictional contact model for {3D} discrete element simulations of "
    "granular systems},\n"
    " note = {Short communication, preprint},\n"
    " year = {2020}\n"
    "}\n\n";

// pair_style gran/jaeger(/kk), fix wall/gran/jaeger
inline constexpr char cite_kuhn_jaeger[] =
    "pair_style gran/jaeger, fix wall/gran/jaeger: Kuhn, implementation of the Jaeger contact "
    "model, doi:10.48550/arXiv.1812.10374; Jaeger, New Solutions in Contact Mechanics (2005)\n\n"
    "@Article{Kuhn2018jaeger,\n"
    " author = {Kuhn, Matthew R.},\n"
    " title = {Implementation of the {J}{\\\"a}ger contact model for discrete element "
    "simulations},\n"
    " journal = {arXiv preprint},\n"
    " volume = {1812.10374},\n"
    " year = {2018},\n"
    " doi = {10.48550/arXiv.1812.10374}\n"
    "}\n\n"
    "@Book{Jaeger2005,\n"
    " author = {J{\\\"a}ger, J.},\n"
    " title = {New Solutions in Contact Mechanics},\n"
    " publisher = {WIT Press},\n"
    " address = {Southampton},\n"
    " year = {2005}\n"
    "}\n\n";

// pair_style gran/coulomb, fix wall/gran/coulomb
inline constexpr char cite_sakamaki[] =
    "pair_style gran/coulomb, fix wall/gran/coulomb: Sakamaki, Krengel, Mueller, Chen and "
    "Matuttis, numerically exact Coulomb friction for DEM in three dimensions\n\n"
    "@InProceedings{Sakamaki3d,\n"
    " author = {Sakamaki, Shouta and Krengel, Dominik and Mueller, Jan and Chen, Jian and "
    "Matuttis, Hans-Georg},\n"
    " title = {Implementation of numerically exact {C}oulomb friction for discrete element "
    "simulations in three dimensions},\n"
    " booktitle = {EPJ Web of Conferences (Powders and Grains)}\n"
    "}\n\n";

}    // namespace demc

#endif
